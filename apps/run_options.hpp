// The options of a training run that `train` and `transfer` share.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "agents/train_config.hpp"

namespace memplace::cli {

// --hardware, --budget, --seed, --threads and -p/--param (hyperparameters as name=value, parsed
// into the config by apply_hyperparameters).
void add_run_options(CLI::App& cmd, agents::TrainConfig& config,
                     std::vector<std::string>& hyperparameters);
void apply_hyperparameters(const std::vector<std::string>& assignments,
                           agents::TrainConfig& config);

}  // namespace memplace::cli
