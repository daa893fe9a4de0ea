// Placing a model with a trained policy (`memplace place`, memplace.place in Python;
// docs/place.md): the policy's greedy mapping, rectified where it overflows (zero-shot: one forward
// pass), optionally fine-tuned for a budget of evaluations from the policy, judged against the
// compiler's mapping, the trivial rule "every tensor in the fastest memory, rectified" and the
// bound no mapping beats.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "agents/nn/gnn_file.hpp"
#include "agents/training/trainer.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/simulator.hpp"

namespace memplace::experiments {

struct PlaceRequest {
  std::string workload;  // a shipped name or a workload YAML file
  std::string hardware;  // a shipped name or a hardware YAML file
  // A policy file, or the name of a shipped policy (agents/shipped_policies.hpp); empty: the
  // policy memplace ships for the chip (by its hardware model's name).
  std::filesystem::path policy;
  std::uint64_t budget = 0;  // evaluations of the fine-tune (0: zero-shot only)
  std::uint64_t seed = 0;    // of the fine-tune
  // The fine-tune starts from the policy with its logits divided by this
  // (TrainConfig::init_temperature); none: default_fine_tune_temperature of the policy's agent.
  std::optional<double> init_temperature;
  // The fine-tune's run folder (resumed if it holds one); needed when budget > 0. A shipped
  // policy it starts from is written beside it first, as <name>.gnn.
  std::filesystem::path fine_tune_dir;
  // Runs the fine-tune's trainer; none: to its end, silently. (The command's shows its progress
  // and stops it, checkpointed, on Ctrl-C.)
  std::function<agents::TrainResult(agents::Trainer&)> run_fine_tune;
};

struct PlaceResult {
  std::string policy_source;  // the file, or "the shipped policy ppo-nnpi"
  agents::PolicySpec policy;  // what the policy was trained for (its file's, or as assumed)
  bool policy_has_spec = false;
  Mapping mapping;  // the placement: the better of the zero-shot and the fine-tuned mapping
  TimeFs latency_fs = 0;
  double speedup = 0;             // of `mapping`, over the compiler's mapping
  bool zero_shot_valid = false;   // the greedy mapping fitted as placed
  int zero_shot_demotions = 0;    // tensors moved to slower memories to make it fit
  double zero_shot_speedup = 0;   // the greedy mapping rectified (0: nothing valid)
  double fine_tuned_speedup = 0;  // the fine-tune's best (0: none run or nothing valid)
  std::uint64_t fine_tune_evaluations = 0;
  // The fine-tune stopped early (run_fine_tune's result said so): nothing else is filled in, and
  // the same request again continues it.
  bool fine_tune_interrupted = false;
  double all_fast_rectified_speedup = 0;       // the trivial rule (0: nothing valid)
  double bound_speedup = 0;                    // no mapping beats it
  std::shared_ptr<const Simulator> simulator;  // the model as it scored the mappings
};

// The temperature a fine-tune starts a policy of `agent` at unless told: 4 for ppo, chosen on the
// shipped policies' validation graphs (scripts/fine-tune-validation.py, docs/place.md#fine-tuning);
// 1 (the policy as trained) for the other agents, where no temperature was tried.
double default_fine_tune_temperature(const std::string& agent);

// Throws InputError naming the file or the field: a policy, workload or hardware that does not
// load; no policy given for a chip memplace ships none for; a policy trained for another chip (by
// its hardware model's name), env version or feature set than the model's; budget > 0 without a
// fine-tune folder.
PlaceResult place(const PlaceRequest& request);

}  // namespace memplace::experiments
