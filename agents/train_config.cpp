#include "agents/train_config.hpp"

#include <sstream>

#include "agents/registry.hpp"
#include "env/env_options.hpp"
#include "env/errors.hpp"
#include "env/single_step_env.hpp"
#include "env/yaml_input.hpp"

namespace memplace::agents {
namespace {

// The single-step env's options that a config may set (workload and hardware are top-level).
std::vector<OptionSpec> env_option_specs(const std::string& version) {
  std::vector<OptionSpec> specs;
  for (OptionSpec& spec : SingleStepEnv::option_specs_for(version)) {
    if (spec.name != "workload" && spec.name != "hardware") specs.push_back(std::move(spec));
  }
  return specs;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError("train config: " + message);
}

}  // namespace

void TrainConfig::resolve() {
  const AgentInfo& info = find_agent(agent);
  require(!workload.empty(), "workload: empty");
  require(!hardware.empty(), "hardware: empty");
  bool env_ok = false;
  std::string envs;
  for (const std::string& e : info.envs) {
    env_ok = env_ok || e == env;
    envs += (envs.empty() ? "" : ", ") + e;
  }
  require(env_ok, "env: agent '" + agent + "' runs on " + envs + ", not '" + env + "'");
  require(budget >= 1, "budget: must be at least 1");
  require(threads >= 0 && threads <= 1024, "threads: must be in 0..1024 (0: every core)");
  require(checkpoint_every >= 1, "checkpoint_every: must be at least 1");
  require(env_version == "v0" || env_version == "v1",
          "env_version: '" + env_version + "' (v0: pinned dynamics, v1: streaming)");
  const std::vector<OptionSpec> env_specs = env_option_specs(env_version);
  env_options = resolve_options("the single-step env", env_specs, env_options);
  hyperparameters = resolve_options("agent '" + agent + "'", info.hyperparameters, hyperparameters);
}

std::string TrainConfig::to_yaml() const {
  std::ostringstream out;
  out << "# memplace train config: `memplace train --config` with this file reruns the run.\n"
      << "agent: " << agent << "\n"
      << "workload: " << yaml_quoted(workload) << "\n"
      << "hardware: " << yaml_quoted(hardware) << "\n"
      << "env: " << env
      << "\n"
      // Written for v1 only, so that v0 runs' configs stay as they were.
      << (env_version == "v0" ? "" : "env_version: " + env_version + "\n") << "budget: " << budget
      << "\n"
      << "seed: " << seed << "\n"
      << "threads: " << threads << "\n"
      << "checkpoint_every: " << checkpoint_every << "\n";
  out << "env_options:" << (env_options.empty() ? " {}" : "") << "\n";
  for (const auto& [name, value] : env_options)
    out << "  " << name << ": " << yaml_quoted(value) << "\n";
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
                          "threads", "checkpoint_every", "env_options", "hyperparameters"},
                         "config");
  TrainConfig c;
  auto text_field = [&](const char* key, std::string& out) {
    if (const YAML::Node n = in.optional(root, key, key); n.IsDefined()) out = in.string(n, key);
  };
  auto count_field = [&](const char* key, auto& out) {
    if (const YAML::Node n = in.optional(root, key, key); n.IsDefined())
      out = static_cast<std::remove_reference_t<decltype(out)>>(in.count(n, key));
  };
  text_field("agent", c.agent);
  text_field("workload", c.workload);
  text_field("hardware", c.hardware);
  text_field("env", c.env);
  text_field("env_version", c.env_version);
  count_field("budget", c.budget);
  count_field("seed", c.seed);
  count_field("threads", c.threads);
  count_field("checkpoint_every", c.checkpoint_every);
  auto map_field = [&](const char* key, OptionMap& out) {
    const YAML::Node n = in.optional(root, key, key);
    if (!n.IsDefined() || n.IsNull()) return;
    in.require_map(n, key);
    for (const auto& item : n) {
      const std::string name = item.first.as<std::string>();
      out[name] = in.string(item.second, std::string(key) + "." + name);
    }
  };
  map_field("env_options", c.env_options);
  map_field("hyperparameters", c.hyperparameters);
  return c;
}

TrainConfig TrainConfig::load(const std::filesystem::path& path) {
  return parse_yaml(YamlInput::read_file(path), path.string());
}

}  // namespace memplace::agents
