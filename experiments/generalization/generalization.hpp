// The generalization track (docs/table.md#the-generalization-track): does a policy trained on some
// graphs place graphs it has never seen — zero-shot, or after a short fine-tune — and does a
// fine-tune beat training from scratch? For each agent with a GNN policy and each chip, one policy
// is trained on the suite's dev instances on that chip and on procedural workloads: a segment of
// `train_budget` evaluations on each in turn, each segment starting from the previous one's policy
// (`rounds` passes). Then every test instance on that chip is placed
//
//   zero-shot   by the policy's greedy mapping (one forward pass; rectified where it overflows),
//   fine-tuned  by a run of `k` evaluations started from the policy (TrainConfig::init_policy),
//   scratch     by the same run from the agent's usual initialisation,
//   pretrained  (with `pretrain`) by the same run started from a reward predictor trained on the
//               chip's training workloads (experiments/generalization/reward_prediction.hpp),
//
// the runs over `seeds` seeds. The policy of each chip also places every other chip's test
// instances zero-shot, its choices carried over by rank (experiments/generalization/transfer.hpp):
// the cross-hardware table. The folder:
//
//   config.yaml
//   chains/<agent>-<chip>/<segment>-<workload>/  each training segment's run folder, with the
//                                                policy.gnn it ended with (none with `policies`:
//                                                the policies are given)
//   chains/reward-predictor-<chip>/network.gnn   the chip's reward predictor (with `pretrain`)
//   runs/<agent>-<fine|scratch|pretrained>-<instance>-s<seed>/  the k-evaluation runs
//   generalization.md, generalization.csv, cross-hardware.csv
//
// Resumable as a table is: finished segments and runs (result.yaml) are read back, interrupted ones
// resume from their checkpoints; a folder made without `pretrain` is extended by a rerun with it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agents/registry.hpp"
#include "agents/training/train_config.hpp"

namespace memplace::experiments {

struct GeneralizationConfig : agents::ScoringEnv {
  GeneralizationConfig() { set_env_version(ModelVersion::v1); }

  std::string suite = "v1";
  std::vector<std::string> agents = agents::policy_agents();  // egrl, sac, ppo
  std::vector<std::string> chips;  // empty: every chip with dev and test instances
  std::vector<std::string> procedural = {"procedural-transformer-s1", "procedural-cnn-s1",
                                         "procedural-random-s1"};
  std::uint64_t train_budget = 2000;  // evaluations per training segment
  std::uint64_t rounds = 1;           // passes over the training workloads
  std::uint64_t k = 1000;             // evaluations of the fine-tuned and scratch runs
  std::uint64_t seeds = 3;            // of the fine-tuned and scratch runs
  // The fine-tuned runs start from the policy with its logits divided by this
  // (TrainConfig::init_temperature; docs/place.md, "Fine-tuning"): 1 as trained.
  double init_temperature = 1;
  int jobs = 0;                         // runs at once (0: one per core)
  bool pretrain = false;                // also the runs from a reward predictor
  std::uint64_t pretrain_steps = 1000;  // of the reward predictor (minibatches of 32 mappings)
  // A folder of trained policies, <agent>-<chip>.gnn (`memplace pretrain`'s, or the shipped
  // ones): the track places and fine-tunes from them instead of training its chains. Each must
  // carry a spec naming its agent, chip and the track's env version; its node features are those
  // of every run of its agent on its chip (fine-tuned, scratch and from the reward predictor).
  std::string policies;

  // Checks every field (agents that can start from a policy, the suite and its chips) and fills
  // in the chips. InputError names the field.
  void resolve();
  std::string to_yaml() const;
  // What a folder must agree on: every field but `pretrain` (adding it extends a folder).
  std::string comparable_yaml() const;
};

// One test instance placed by one agent's policy trained on its chip.
struct GeneralizationRow {
  std::string agent;
  std::string chip;
  std::string instance;   // "workload@chip"
  double best_known = 0;  // the attainable speedup: the shipped best known or any run here
  // The trivial baseline a zero-shot placement must beat: every tensor in the fastest memory,
  // then rectified (experiments/table/table_report.hpp); 0 if nothing valid.
  double all_fast_rectified = 0;
  bool zero_shot_valid = false;    // the greedy mapping fitted as placed
  double zero_shot_speedup = 0;    // rectified where it overflowed (0: nothing valid)
  std::vector<double> fine_tuned;  // final best speedup per seed (0: no valid mapping)
  std::vector<double> scratch;     // per seed
  std::vector<double> pretrained;  // per seed (empty without `pretrain`)
  // Per seed: the evaluations the fine-tuned run needed to reach the scratch run's final best
  // (nullopt: it did not within k).
  std::vector<std::optional<std::uint64_t>> evaluations_to_scratch;
};

// A chip's policy placing another chip's test instances zero-shot.
struct CrossHardwareCell {
  std::string agent;
  std::string trained_on;
  std::string placed_on;
  std::vector<double> shares;  // per test instance of placed_on, rectified greedy mappings
};

struct GeneralizationReport {
  std::vector<GeneralizationRow> rows;
  std::vector<CrossHardwareCell> cross_hardware;
  // Per chip with `pretrain`: the reward predictor's held-out R² (reward_prediction.hpp).
  std::vector<std::pair<std::string, double>> predictor_r2;
  bool interrupted = false;
};

struct GeneralizationProgress {
  std::size_t done = 0;
  std::size_t total = 0;
  std::string last_finished;
  double wall_seconds = 0;
};

// Runs (or completes) the track in folder `out`; InputError if it holds another config.
GeneralizationReport run_generalization(
    GeneralizationConfig config, const std::filesystem::path& out,
    const std::function<void(const GeneralizationProgress&)>& progress = {},
    const std::function<bool()>& stop = {});

// The reports (docs/table.md#the-generalization-track).
std::string generalization_markdown(const GeneralizationConfig& config,
                                    const GeneralizationReport& report);
std::string generalization_csv(const GeneralizationReport& report);
std::string cross_hardware_csv(const GeneralizationReport& report);

}  // namespace memplace::experiments
