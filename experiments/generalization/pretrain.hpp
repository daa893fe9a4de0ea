// Training one policy across many graphs (docs/place.md, "Training across graphs"): a stream of
// segments, each a run of `segment_budget` evaluations of the agent on the stream's next workload,
// started from the policy the previous segment ended with — a dev instance of the chip every
// `dev_every`-th segment, otherwise a procedural graph never used before
// (procedural-<kind>-s<first_seed + segment>, the kinds in turn). Every `validate_every` segments
// the policy places the validation workloads zero-shot (its greedy mapping, rectified) and
// validation.csv gets a row per workload: the curve of zero-shot speedup against training
// evaluations. The folder:
//
//   config.yaml      the config (a rerun with more segments extends the folder; with any other
//                    change it is refused)
//   policy.gnn       the policy after the last finished segment, with its spec
//   policies/<k>.gnn the same, named by the segments finished (what the next segment starts from)
//   progress.yaml    segments finished, evaluations so far
//   segment/         the running segment's run folder (a killed run resumes it)
//   validation.csv   segment, evaluations, workload, zero_shot_speedup,
//                    all_fast_rectified_speedup, bound_speedup
//   best.gnn         the validated policy whose zero-shot placements scored best: the highest
//                    IQM over the validation workloads of the share of the bound's gain (the
//                    first of equals); what `memplace place` should be given
//   best.yaml        its segment and score
//
// Resumable: a rerun continues after the last finished segment, exactly as an uninterrupted run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "agents/training/train_config.hpp"

namespace memplace::experiments {

struct PretrainConfig : agents::ScoringEnv {
  PretrainConfig();
  std::string agent = "ppo";
  std::vector<std::string> dev;         // the chip's training instances (workloads), in turn
  std::vector<std::string> validation;  // placed zero-shot at every validation
  std::vector<std::string> kinds = {"transformer", "cnn", "random"};
  std::uint64_t first_seed = 1000;
  std::uint64_t dev_every = 4;  // 0: no dev instances in the stream
  std::uint64_t segments = 100;
  std::uint64_t segment_budget = 500;
  std::uint64_t validate_every = 10;
  OptionMap hyperparameters;                                          // the agent's
  agents::NodeFeatures features = agents::NodeFeatures::observation;  // what the policy reads

  // The workload of segment `i` (from 0).
  std::string workload_at(std::uint64_t segment) const;
  // InputError naming the field: an agent without a GNN policy, an empty stream or validation
  // set, a zero budget.
  void check() const;
  std::string to_yaml() const;
};

struct PretrainProgress {
  std::uint64_t segment = 0;  // finished
  std::uint64_t segments = 0;
  std::uint64_t evaluations = 0;
  double wall_seconds = 0;      // this call's
  std::string last_validation;  // "zero-shot above the all-fast rule on k of n, mean 1.23x"
};

struct PretrainResult {
  std::uint64_t segments_done = 0;
  std::uint64_t evaluations = 0;
  bool interrupted = false;  // stop() said so; the folder continues on a rerun
};

PretrainResult run_pretrain(const PretrainConfig& config, const std::filesystem::path& out,
                            const std::function<void(const PretrainProgress&)>& progress = {},
                            const std::function<bool()>& stop = {});

}  // namespace memplace::experiments
