// What a run records of its evaluations, whoever proposed them — the trainer for memplace's own
// agents, experiments/table/external_run.hpp for an agent memplace does not have: the learning
// curve's rows (curve.csv) and the best valid mapping (best_mapping.yaml). One record, so that a
// run of either kind means the same thing in a table (docs/leaderboard.md, "The run folder").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "agents/training/run_folder.hpp"
#include "env/single_step_env.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/simulator.hpp"

namespace memplace::agents {

struct CurveRow {
  std::uint64_t evaluations = 0;  // so far
  double wall_seconds = 0;        // so far (the only column that differs between reruns)
  double best_speedup = 0;        // of the best valid mapping so far (0 until one is found)
  double batch_mean_speedup = 0;  // mean over the evaluations since the previous row; an invalid
                                  // mapping counts 0 (a rectified one its rectified speedup)
  double valid_fraction = 0;      // of the evaluations since the previous row
};

// Scores one proposal through the single-step environment (its reward and invalid options), as
// every evaluation of a run is scored.
Outcome score_proposal(SingleStepEnv& env, const Mapping& proposal);

struct RunRecord {
  std::uint64_t budget = 0;
  std::uint64_t evaluations = 0;
  // Since the last curve row.
  std::uint64_t pending = 0, pending_valid = 0;
  double pending_speedup = 0;
  std::vector<CurveRow> curve;
  // The best valid (or rectified) mapping so far, as scored.
  std::optional<Mapping> best;
  double best_speedup = 0;
  TimeFs best_latency_fs = 0;

  // One evaluation, `wall` seconds into the run.
  void record(const Outcome& outcome, double wall);
  // Evaluations an agent spent on its own model (Agent::take_model_evaluations): on the budget
  // and the curve's axis, with no outcome of their own.
  void charge(std::uint64_t spent, double wall);
  // Closes the open curve row (a row closes every max(1, budget / 500) evaluations, and at the
  // end of the budget; a run that ends early closes its last one here).
  void close_row(double wall);
  // curve.csv and best_mapping.yaml (when there is a best), atomically.
  void write(const RunFolder& folder, const Simulator& sim) const;

 private:
  std::uint64_t curve_interval() const { return std::max<std::uint64_t>(1, budget / 500); }
  bool row_due() const;
};

// curve.csv as text (the header line, then one line per row).
std::string curve_csv(const std::vector<CurveRow>& rows);

}  // namespace memplace::agents
