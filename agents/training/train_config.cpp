#include "agents/training/train_config.hpp"

#include <cmath>
#include <sstream>

#include "agents/registry.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "base/text.hpp"
#include "base/yaml_input.hpp"
#include "model/inputs/hardware.hpp"

namespace memplace::agents {
namespace {

// The single-step env's options a config sets under env_options: the model's but the workload
// and the hardware (top-level keys), then the scoring's.
std::vector<OptionSpec> env_option_specs(ModelVersion version) {
  std::vector<OptionSpec> specs;
  for (OptionSpec& spec : ModelSpec::option_specs(version))
    if (spec.name != "workload" && spec.name != "hardware") specs.push_back(std::move(spec));
  for (OptionSpec& spec : SingleStepOptions::specs())
    specs.push_back(std::move(spec));
  return specs;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError("train config: " + message);
}

}  // namespace

std::string ScoringEnv::env_version_yaml() const {
  return "env_version: " + std::string(version_name(env_version)) + "\n";
}

std::string ScoringEnv::env_options_yaml() const {
  std::string out = "env_options:\n";
  for (const auto& [name, value] : env_options())
    out += "  " + name + ": " + yaml_quoted(value) + "\n";
  return out;
}

void ScoringEnv::read_yaml(const YamlInput& in, const YAML::Node& root) {
  if (const YAML::Node n = in.optional(root, "env_version", "env_version"); n.IsDefined()) {
    ModelVersion version = ModelVersion::v0;
    try {
      version = parse_version(in.string(n, "env_version"));
    } catch (const InputError& e) {
      in.fail(n, "env_version", e.what());
    }
    set_env_version(version);
  }
  const YAML::Node n = in.optional(root, "env_options", "env_options");
  if (!n.IsDefined() || n.IsNull()) return;
  in.require_map(n, "env_options");
  OptionMap options;
  for (const auto& item : n) {
    const std::string name = in.key(item.first, "env_options");
    options[name] = in.string(item.second, "env_options." + name);
  }
  try {
    set_env_options(options);
  } catch (const InputError& e) {
    in.fail(n, "env_options", e.what());
  }
}

void ScoringEnv::set_env_version(ModelVersion version) {
  if (version != env_version) model.dynamics = default_dynamics(version);
  env_version = version;
}

void ScoringEnv::set_env_options(const OptionMap& options) {
  const std::vector<OptionSpec> specs = env_option_specs(env_version);
  OptionMap values = env_options();
  for (const auto& [name, value] : options) {
    if (auto problem = option_problem(specs, name, value))
      throw InputError("the single-step env: " + *problem);
    values[name] = value;
  }
  values["workload"] = model.workload;
  values["hardware"] = model.hardware;
  model = ModelSpec::from_options(values);
  scoring = SingleStepOptions::from_options(values);
}

OptionMap ScoringEnv::env_options() const {
  OptionMap options = model.to_options(env_version);
  options.erase("workload");
  options.erase("hardware");
  options.merge(scoring.to_options());
  return options;
}

void ScoringEnv::require_version() const {
  try {
    model.require_version(env_version);
  } catch (const InputError& e) {
    throw InputError(std::string("env_options: ") + e.what());
  }
}

bool valid_init_temperature(double temperature) {
  return std::isfinite(temperature) && temperature >= kMinInitTemperature &&
         temperature <= kMaxInitTemperature;
}

void TrainConfig::resolve() {
  const AgentInfo& info = find_agent(agent);
  require(!model.workload.empty(), "workload: empty");
  require(!model.hardware.empty(), "hardware: empty");
  if (env.empty()) env = info.envs.front();
  bool env_ok = false;
  std::string envs;
  for (const std::string& e : info.envs) {
    env_ok = env_ok || e == env;
    envs += (envs.empty() ? "" : ", ") + e;
  }
  require(env_ok, "env: agent '" + agent + "' runs on " + envs + ", not '" + env + "'");
  if (!info.trains_under(env_version)) {
    std::string versions, agents;
    for (const std::string& v : info.version_names())
      versions += (versions.empty() ? "" : ", ") + v;
    for (const AgentInfo& other : agent_registry())
      if (other.trains_under(env_version)) agents += (agents.empty() ? "" : ", ") + other.name;
    require(false, "env_version: agent '" + agent + "' trains under " + versions + ", not " +
                       std::string(version_name(env_version)) + " (the agents that do: " + agents +
                       ")");
  }
  require(budget >= 1, "budget: must be at least 1");
  require(threads >= 0 && threads <= 1024, "threads: must be in 0..1024 (0: every core)");
  require(checkpoint_every >= 1, "checkpoint_every: must be at least 1");
  require(init_policy.empty() || info.starts_from_policy,
          "init_policy: agent '" + agent + "' has no GNN to start from a trained policy");
  require(valid_init_temperature(init_temperature), "init_temperature: must be in [0.001, 1000]");
  require(init_temperature == 1 || !init_policy.empty(),
          "init_temperature: tempers a trained policy, so it needs init_policy");
  require(features == NodeFeatures::observation || info.starts_from_policy,
          "features: agent '" + agent + "' reads the observation as it is (" +
              std::string(name_of(NodeFeatures::chip_relative)) +
              " is for the agents that place with their GNN policy: " +
              join(policy_agents(), ", ") + ")");
  try {
    require_version();
  } catch (const InputError& e) {
    require(false, e.what());
  }
  hyperparameters = resolve_options("agent '" + agent + "'", info.hyperparameters, hyperparameters);
}

std::string TrainConfig::to_yaml() const {
  std::ostringstream out;
  out << "# memplace train config: `memplace train --config` with this file reruns the run.\n"
      << "agent: " << agent << "\n"
      << "workload: " << yaml_quoted(model.workload) << "\n"
      << "hardware: " << yaml_quoted(model.hardware) << "\n"
      << "env: " << env
      << "\n"
      // Written from v1 on only, so that v0 runs' configs stay as they were.
      << (env_version == ModelVersion::v0 ? "" : env_version_yaml()) << "budget: " << budget << "\n"
      << "seed: " << seed << "\n"
      << "threads: " << threads << "\n"
      << "checkpoint_every: " << checkpoint_every << "\n";
  // Written when set only, so that other runs' configs stay as they were.
  if (!init_policy.empty()) out << "init_policy: " << yaml_quoted(init_policy) << "\n";
  if (init_temperature != 1)
    out << "init_temperature: " << format_significant(init_temperature, 17) << "\n";
  if (features != NodeFeatures::observation) out << "features: " << name_of(features) << "\n";
  out << env_options_yaml();
  out << "hyperparameters:" << (hyperparameters.empty() ? " {}" : "") << "\n";
  for (const auto& [name, value] : hyperparameters)
    out << "  " << name << ": " << yaml_quoted(value) << "\n";
  return out.str();
}

TrainConfig TrainConfig::parse_yaml(std::string_view text, std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  in.require_map(root, "config");
  in.reject_unknown_keys(root,
                         {"agent", "workload", "hardware", "env", "env_version", "budget", "seed",
                          "threads", "checkpoint_every", "init_policy", "init_temperature",
                          "features", "env_options", "hyperparameters"},
                         "config");
  TrainConfig c;
  auto text_field = [&](const char* key, std::string& out) {
    if (const YAML::Node n = in.optional(root, key, key); n.IsDefined()) out = in.string(n, key);
  };
  auto count_field = [&](const char* key, auto& out) {
    if (const YAML::Node n = in.optional(root, key, key); n.IsDefined())
      out = static_cast<std::remove_reference_t<decltype(out)>>(in.count(n, key));
  };
  auto map_field = [&](const char* key, OptionMap& out) {
    const YAML::Node n = in.optional(root, key, key);
    if (!n.IsDefined() || n.IsNull()) return;
    in.require_map(n, key);
    for (const auto& item : n) {
      const std::string name = in.key(item.first, key);
      out[name] = in.string(item.second, std::string(key) + "." + name);
    }
  };
  text_field("agent", c.agent);
  text_field("workload", c.model.workload);
  text_field("hardware", c.model.hardware);
  text_field("env", c.env);
  text_field("init_policy", c.init_policy);
  if (const YAML::Node n = in.optional(root, "init_temperature", "init_temperature"); n.IsDefined())
    c.init_temperature = in.positive(n, "init_temperature");
  if (const YAML::Node n = in.optional(root, "features", "features"); n.IsDefined()) {
    try {
      c.features = parse_node_features(in.string(n, "features"));
    } catch (const InputError& e) {
      in.fail(n, "features", e.what());
    }
  }
  c.read_yaml(in, root);
  count_field("budget", c.budget);
  count_field("seed", c.seed);
  count_field("threads", c.threads);
  count_field("checkpoint_every", c.checkpoint_every);
  map_field("hyperparameters", c.hyperparameters);
  return c;
}

TrainConfig TrainConfig::load(const std::filesystem::path& path) {
  return parse_yaml(YamlInput::read_file(path), path.string());
}

PolicySpec policy_spec(const TrainConfig& config) {
  return {.agent = config.agent,
          .env_version = config.env_version,
          .hardware = load_hardware(config.model.hardware).name,
          .features = std::string(name_of(config.features))};
}

}  // namespace memplace::agents
