#include "apps/shared/run_options.hpp"

#include "apps/shared/cli_model.hpp"
#include "apps/shared/validators.hpp"
#include "base/options.hpp"

namespace memplace::cli {

void add_run_options(CLI::App& cmd, agents::TrainConfig& config, RunAssignments& assignments,
                     bool addressed) {
  add_hardware_option(cmd, config.model);
  std::vector<std::string> versions = {"v0", "v1"};
  std::string help = "v0: pinned dynamics; v1: streaming (cost model v1)";
  if (addressed) {
    versions.emplace_back("v2");
    help += "; v2: addressed (cost model v2), for the agents that train under it (memplace list)";
  }
  help += "; docs/envs/README.md";
  cmd.add_option_function<std::string>(
         "--env-version",
         [&config](const std::string& version) { config.set_env_version(parse_version(version)); },
         help)
      ->check(CLI::IsMember(versions))
      ->default_str(std::string(version_name(config.env_version)));
  cmd.add_option("--budget", config.budget, "Simulator evaluations to spend")
      ->transform(whole_number(1, std::uint64_t{1} << 40))
      ->capture_default_str();
  cmd.add_option("--seed", config.seed, "Seed of the run")
      ->transform(whole_number(0))
      ->capture_default_str();
  cmd.add_option("--threads", config.threads, "Threads (0: every core); never changes results")
      ->transform(whole_number(0, 1024))
      ->capture_default_str();
  add_features_option(cmd, config.features);
  add_assignment_options(cmd, assignments);
}

void add_assignment_options(CLI::App& cmd, RunAssignments& assignments) {
  cmd.add_option("-p,--param", assignments.hyperparameters,
                 "An agent hyperparameter as name=value (repeatable; docs/agents.md)");
  cmd.add_option("-o,--option", assignments.env_options,
                 "A single-step env option as name=value, e.g. -o invalid=rectify");
}

void add_features_option(CLI::App& cmd, agents::NodeFeatures& features) {
  std::vector<std::string> names;
  for (const agents::NodeFeatures f : agents::kNodeFeatureSets)
    names.emplace_back(agents::name_of(f));
  cmd.add_option_function<std::string>(
         "--features",
         [&features](const std::string& name) { features = agents::parse_node_features(name); },
         "The node features the agent's GNN reads: observation (the env's), or chip-relative "
         "(those and each tensor against the chip; docs/place.md#what-a-policy-reads)")
      ->check(CLI::IsMember(names))
      ->default_str(std::string(agents::name_of(features)));
}

void RunAssignments::apply(OptionMap& hyperparameters, agents::ScoringEnv& env) const {
  for (const std::string& a : this->hyperparameters)
    parse_option_assignment(a, hyperparameters, "--param");
  OptionMap given;
  for (const std::string& a : env_options)
    parse_option_assignment(a, given, "--option");
  env.set_env_options(given);
}

}  // namespace memplace::cli
