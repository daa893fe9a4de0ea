// The trainer: drives one agent on one workload for a budget of simulator evaluations, and owns
// the run folder:
//
//   config.yaml        everything needed to rerun (memplace train --config RUN/config.yaml)
//   curve.csv          evaluations, wall_seconds, best_speedup, batch_mean_speedup, valid_fraction
//   best_mapping.yaml  the best valid mapping, replayable with `memplace evaluate`
//   checkpoint.bin     trainer and agent state (atomic; every checkpoint_every evaluations, on
//                      SIGINT/SIGTERM, and at the end), from which `memplace train --resume RUN`
//                      continues to exactly the result of an uninterrupted run
//
// Proposals are scored through the single-step environment (its reward and invalid options), in
// parallel over the batch; every evaluation counts against the budget. In a job of several ranks
// (base/parallel/process_group.hpp) every rank runs the same agent and scores its share of each
// batch; the outcomes are gathered in the batch's order, so the run is bit for bit the one-process
// run, and rank 0 alone writes the run folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "agents/agent.hpp"
#include "agents/training/run_record.hpp"
#include "agents/training/train_config.hpp"
#include "base/parallel/process_group.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"

namespace memplace::agents {

struct TrainProgress {
  std::uint64_t evaluations = 0;
  std::uint64_t budget = 0;
  double best_speedup = 0;
  double wall_seconds = 0;
  std::string agent_status;
};

struct TrainResult {
  std::uint64_t evaluations = 0;
  double wall_seconds = 0;
  // Where this call's wall time went: the agent proposing (ea, egrl: the population's forward
  // passes), the simulator scoring the proposals, the agent learning from them. With several
  // ranks, this rank's share of the work shared out and its wait for the others'.
  double proposing_seconds = 0;
  double scoring_seconds = 0;
  double learning_seconds = 0;
  bool interrupted = false;             // stopped early on request; the checkpoint holds the state
  std::optional<Mapping> best_mapping;  // none if no valid mapping was found
  double best_speedup = 0;
  TimeFs best_latency_fs = 0;
};

class Trainer;
std::unique_ptr<Agent> check_runnable(TrainConfig config);

class Trainer {
 public:
  // A new run writing to `run_dir` (created if missing; refused if it already holds a run). With
  // several ranks, every rank constructs it with the same config and folder (refused otherwise).
  Trainer(TrainConfig config, std::filesystem::path run_dir,
          ProcessGroup& ranks = single_process());
  // The run in `run_dir`, continued from its checkpoint.
  static Trainer resume(const std::filesystem::path& run_dir,
                        ProcessGroup& ranks = single_process());
  // Continues the run in `run_dir` if it has a checkpoint; otherwise starts `config` there afresh
  // (removing what a run killed before its first checkpoint left).
  static Trainer resume_or_start(TrainConfig config, const std::filesystem::path& run_dir);
  ~Trainer();
  Trainer(Trainer&&) noexcept;

  // Runs until the budget is spent or `stop()` returns true (checked after every batch, on every
  // rank: one rank asked stops them all; the state is checkpointed before returning). `progress`
  // is called after every batch.
  TrainResult run(const std::function<void(const TrainProgress&)>& progress = {},
                  const std::function<bool()>& stop = {});

  const TrainConfig& config() const;
  // The agent as it is now (after run(): at the end of the run).
  const Agent& agent() const;
  const std::vector<CurveRow>& curve() const;
  const std::filesystem::path& run_dir() const;

 private:
  friend std::unique_ptr<Agent> check_runnable(TrainConfig config);
  struct State;
  explicit Trainer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Builds the environment and the agent of `config` as a run would, without a run folder, so that
// every bad value (a hyperparameter the agent refuses, a workload that does not load) throws its
// InputError before anything is written. Returns the fresh agent (to ask what it offers).
std::unique_ptr<Agent> check_runnable(TrainConfig config);

}  // namespace memplace::agents
