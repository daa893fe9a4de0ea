// The options of a training run that `train` and `transfer` share.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "agents/training/train_config.hpp"

namespace memplace::cli {

// The name=value assignments of a run's command line, parsed into its config by apply().
struct RunAssignments {
  std::vector<std::string> hyperparameters;  // -p/--param: the agent's (docs/agents.md)
  std::vector<std::string> env_options;      // -o/--option: the single-step env's
  void apply(agents::TrainConfig& config) const { apply(config.hyperparameters, config); }
  void apply(OptionMap& hyperparameters, agents::ScoringEnv& env) const;
};

// -p/--param and -o/--option.
void add_assignment_options(CLI::App& cmd, RunAssignments& assignments);

// --features: the node features the agent's GNN reads (agents/node_features.hpp).
void add_features_option(CLI::App& cmd, agents::NodeFeatures& features);

// --hardware, --env-version, --budget, --seed, --threads, --features, -p/--param and -o/--option;
// with `addressed`, --env-version also takes v2 (train: mcts plays the malloc env there; transfer's
// agents do not train under it).
void add_run_options(CLI::App& cmd, agents::TrainConfig& config, RunAssignments& assignments,
                     bool addressed);

}  // namespace memplace::cli
