// What a training run is: the agent, the model it places on (workload, hardware, cost model), the
// budget and the seed, how the single-step env scores proposals, and the agent's hyperparameters.
// The trainer writes it to the run folder as config.yaml, which `memplace train --config` reads
// back to rerun the same run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "agents/nn/gnn_file.hpp"
#include "agents/node_features.hpp"
#include "base/options.hpp"
#include "base/yaml_input.hpp"
#include "env/single_step_env.hpp"
#include "model/model_spec.hpp"

namespace memplace::agents {

// The single-step env that scores a run's proposals: a model spec at an env version, with the
// env's reward and invalid options. Train and table configs hold one; the trainer makes the env
// from it (SingleStepEnv::make).
struct ScoringEnv {
  ModelSpec model;                              // workload, hardware, memory_time, dynamics, ...
  ModelVersion env_version = ModelVersion::v0;  // v0: pinned; v1: streaming (docs/envs/README.md)
  SingleStepOptions scoring;                    // reward, invalid

  // Changes the env version; the dynamics follows the new version's default (v0 pinned, v1
  // streaming), as a config file that names only its version gets it.
  void set_env_version(ModelVersion version);
  // Sets the env's options by name (memory_time, reward, invalid; under v1 dynamics and
  // lookahead), as `-o name=value` and a config's env_options give them. InputError names an
  // unknown option or a bad value.
  void set_env_options(const OptionMap& options);
  // Those options, every one present (the workload and hardware are not among them).
  OptionMap env_options() const;
  // InputError unless the env version can express the model (v0: pinned, no lookahead).
  void require_version() const;

  // As every config file (train, table, generalization) writes and reads them: the line
  // "env_version: v1" and the block "env_options:" with every option, one per line.
  std::string env_version_yaml() const;
  std::string env_options_yaml() const;
  // Reads env_version and env_options from a config's root map, each optional; InputError names
  // the file, the line and the field.
  void read_yaml(const YamlInput& in, const YAML::Node& root);
  friend bool operator==(const ScoringEnv&, const ScoringEnv&) = default;
};

// The temperatures a fine-tune may start a policy at (TrainConfig::init_temperature): finite,
// within [kMinInitTemperature, kMaxInitTemperature].
inline constexpr double kMinInitTemperature = 1e-3;
inline constexpr double kMaxInitTemperature = 1e3;
bool valid_init_temperature(double temperature);

struct TrainConfig : ScoringEnv {
  std::string agent = "egrl";
  // How the agent builds mappings: single-step or sequential; empty: the first its AgentInfo lists
  // (resolve() fills it in).
  std::string env;
  std::uint64_t budget = 20000;  // simulator evaluations
  std::uint64_t seed = 0;
  int threads = 0;                        // 0: every core (results never depend on it)
  std::uint64_t checkpoint_every = 1000;  // evaluations between checkpoints
  OptionMap hyperparameters;              // the agent's (docs/agents.md); defaults filled in
  // A policy.gnn to start the agent's GNN from (fine-tuning: agents whose registry entry says
  // starts_from_policy); empty: the usual initialisation.
  std::string init_policy;
  // The trained policy's logits divided by this at the start (nn::temper_policy): above 1 a
  // policy that became near-deterministic explores around its mapping again. 1: as trained.
  double init_temperature = 1;
  // The node features the agent's GNN reads (agents/node_features.hpp): the observation's, or
  // those and the chip-relative columns (agents with a GNN policy only).
  NodeFeatures features = NodeFeatures::observation;

  // Checks every field (the agent and its hyperparameters against the registry, the model
  // against the env version) and fills in defaults. Throws InputError naming the field.
  void resolve();
  std::string to_yaml() const;
  // Reads a config file; every key is optional (defaults as above). InputError names the file,
  // the line and the field.
  static TrainConfig parse_yaml(std::string_view text, std::string_view origin);
  static TrainConfig load(const std::filesystem::path& path);
  friend bool operator==(const TrainConfig&, const TrainConfig&) = default;
};

// What a policy trained by this config is for (saved with it: agents/nn/gnn_file.hpp): its agent,
// env version and chip (by its hardware model's name), and the node features it reads.
PolicySpec policy_spec(const TrainConfig& config);

}  // namespace memplace::agents
