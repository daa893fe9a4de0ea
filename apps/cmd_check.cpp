// memplace check ENV_ID: hold an environment to the contract (env/checker.hpp) and play a few
// random-agent episodes, printing their returns — the quickest way to try an environment.
#include <cmath>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/shared/text_table.hpp"
#include "apps/shared/validators.hpp"
#include "base/yaml_input.hpp"
#include "env/checker.hpp"
#include "env/registry.hpp"

namespace memplace::cli {

namespace {

struct CheckCommandOptions {
  std::string id = "memplace/sequential/resnet50-v0";
  std::vector<std::string> assignments;  // name=value
  std::string options_file;
  std::size_t episodes = 5;
  std::uint64_t seed = 1;
  bool json = false;
};

struct EpisodeSummary {
  std::size_t steps = 0;
  double episode_return = 0;
  double final_speedup = 0;
  bool valid = false;
};

// A uniformly random agent (masked where the action space has a mask).
EpisodeSummary random_episode(Env& env, std::uint64_t seed) {
  EpisodeSummary s;
  env.reset(seed);
  const Space space = env.action_space();
  std::vector<std::int64_t> action;
  while (true) {
    if (const auto* d = std::get_if<Discrete>(&space)) {
      action = {d->sample(env.rng(), env.observation().action_mask)};
    } else {
      action = std::get<MultiDiscrete>(space).sample(env.rng());
    }
    const StepResult r = env.step(action);
    ++s.steps;
    s.episode_return += r.reward;
    if (r.terminated || r.truncated) {
      s.final_speedup = r.info.speedup;
      s.valid = r.info.valid;
      return s;
    }
  }
}

void run_check(const CheckCommandOptions& o, Streams io) {
  if (env_option_specs(o.id).empty()) make(o.id);  // an unknown id: make() says which ids exist
  OptionMap options;
  if (!o.options_file.empty()) {
    options = parse_options_yaml(YamlInput::read_file(o.options_file), o.options_file,
                                 env_option_specs(o.id));
  }
  for (const std::string& a : o.assignments)
    parse_option_assignment(a, options, "--option");
  const std::unique_ptr<Env> env = make(o.id, options);
  CheckOptions check;
  check.seed = o.seed;
  const std::vector<std::string> problems = check_env(*env, check);

  std::vector<EpisodeSummary> episodes;
  for (std::size_t e = 0; e < o.episodes; ++e)
    episodes.push_back(random_episode(*env, o.seed + e));

  if (o.json) {
    nlohmann::json doc = {{"id", o.id},
                          {"options", env->options()},
                          {"observation_space", describe(env->observation_space())},
                          {"action_space", describe(env->action_space())},
                          {"episode_length", env->episode_length()},
                          {"problems", problems}};
    for (const EpisodeSummary& s : episodes) {
      doc["episodes"].push_back({{"steps", s.steps},
                                 {"return", s.episode_return},
                                 {"final_speedup", s.final_speedup},
                                 {"valid", s.valid}});
    }
    io.out << doc.dump(2) << "\n";
  } else {
    io.out << o.id << "\n  observation: " << describe(env->observation_space())
           << "\n  action:      " << describe(env->action_space())
           << "\n  episode:     " << env->episode_length() << " steps\n  options:    ";
    for (const auto& [name, value] : env->options())
      io.out << " " << name << "=" << value;
    io.out << "\n\ncontract: "
           << (problems.empty() ? "conforms" : std::to_string(problems.size()) + " problem(s)")
           << "\n";
    for (const std::string& p : problems)
      io.out << "  - " << p << "\n";
    io.out << "\nrandom agent, seeds " << o.seed << ".." << o.seed + o.episodes - 1 << ":\n\n";
    TextTable table({"seed", "steps", "return", "final speedup", "valid"});
    for (std::size_t e = 0; e < episodes.size(); ++e) {
      table.add_row({std::to_string(o.seed + e), std::to_string(episodes[e].steps),
                     format_fixed(episodes[e].episode_return, 4),
                     format_fixed(episodes[e].final_speedup, 4), episodes[e].valid ? "yes" : "no"});
    }
    table.print(io.out);
  }
  if (!problems.empty()) {
    throw std::runtime_error(o.id + " does not conform to the environment contract");
  }
}

}  // namespace

void add_check_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "check", "Check an environment against the contract and play random-agent episodes");
  auto o = std::make_shared<CheckCommandOptions>();
  cmd->add_option("env", o->id, "Environment id (memplace list shows them)")->capture_default_str();
  cmd->add_option("-o,--option", o->assignments,
                  "An environment option as name=value (repeatable), e.g. -o reward=log-speedup");
  cmd->add_option("--options", o->options_file, "A YAML file of environment options")
      ->check(kNonEmptyName);
  cmd->add_option("--episodes", o->episodes, "Random-agent episodes to play")
      ->transform(whole_number(1, 100000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the first episode")
      ->transform(whole_number(0))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([io, o] { run_check(*o, io); });
}

}  // namespace memplace::cli
