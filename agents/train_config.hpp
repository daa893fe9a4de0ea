// What a training run is: the agent, the workload, the budget and the seed, the environment's
// reward options and the agent's hyperparameters. The trainer writes it to the run folder as
// config.yaml, which `memplace train --config` reads back to rerun the same run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "env/env.hpp"

namespace memplace::agents {

struct TrainConfig {
  std::string agent = "egrl";
  std::string workload = "resnet50";
  std::string hardware = "nnpi";
  std::string env = "single-step";  // how the agent builds mappings: single-step or sequential
  std::string env_version = "v0";   // v0: pinned dynamics; v1: streaming (docs/envs/README.md)
  std::uint64_t budget = 20000;     // simulator evaluations
  std::uint64_t seed = 0;
  int threads = 0;                        // 0: every core (results never depend on it)
  std::uint64_t checkpoint_every = 1000;  // evaluations between checkpoints
  OptionMap env_options;      // of the single-step env: reward, invalid, memory_time (v1: dynamics,
                              // lookahead)
  OptionMap hyperparameters;  // the agent's (docs/agents.md); defaults filled in

  // Checks every field (the agent and its hyperparameters against the registry, the env options
  // against the single-step env's) and fills in defaults. Throws InputError naming the field.
  void resolve();
  std::string to_yaml() const;
  // Reads a config file; every key is optional (defaults as above). InputError names the file,
  // the line and the field.
  static TrainConfig parse_yaml(std::string_view text, std::string_view origin);
  static TrainConfig load(const std::filesystem::path& path);
  friend bool operator==(const TrainConfig&, const TrainConfig&) = default;
};

}  // namespace memplace::agents
