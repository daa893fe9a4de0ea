#include "agents/training/run_record.hpp"

#include <cstdio>

#include "base/atomic_file.hpp"
#include "model/mapping_io.hpp"

namespace memplace::agents {

Outcome score_proposal(SingleStepEnv& env, const Mapping& proposal) {
  env.reset(0);
  const StepResult step = env.step_mapping(proposal);
  Outcome o;
  o.reward = step.reward;
  o.speedup = step.info.speedup;
  o.valid = step.info.valid;
  o.rectified = step.info.rectified;
  o.scored.assign(env.scored_mapping().begin(), env.scored_mapping().end());
  o.latency_fs = step.info.latency_fs;
  return o;
}

void RunRecord::record(const Outcome& o, double wall) {
  const bool scored_valid = o.valid || o.rectified;
  ++evaluations;
  ++pending;
  if (o.valid) ++pending_valid;
  if (scored_valid) {
    pending_speedup += o.speedup;
    if (!best || o.speedup > best_speedup) {
      best = o.scored;
      best_speedup = o.speedup;
      best_latency_fs = o.latency_fs;
    }
  }
  if (row_due()) close_row(wall);
}

void RunRecord::charge(std::uint64_t spent, double wall) {
  evaluations += spent;
  if (spent > 0 && row_due()) close_row(wall);
}

bool RunRecord::row_due() const {
  const std::uint64_t last = curve.empty() ? 0 : curve.back().evaluations;
  return evaluations - last >= curve_interval() || evaluations >= budget;
}

void RunRecord::close_row(double wall) {
  if (pending == 0) return;
  curve.push_back(CurveRow{evaluations, wall, best ? best_speedup : 0.0,
                           pending_speedup / static_cast<double>(pending),
                           static_cast<double>(pending_valid) / static_cast<double>(pending)});
  pending = pending_valid = 0;
  pending_speedup = 0;
}

void RunRecord::write(const RunFolder& folder, const Simulator& sim) const {
  write_file_atomically(folder.curve(), curve_csv(curve));
  if (best) save_mapping(folder.best_mapping(), sim, *best, RecordedResult{best_latency_fs, true});
}

std::string curve_csv(const std::vector<CurveRow>& rows) {
  std::string out = "evaluations,wall_seconds,best_speedup,batch_mean_speedup,valid_fraction\n";
  char line[256];
  for (const CurveRow& r : rows) {
    std::snprintf(line, sizeof line, "%llu,%.3f,%.9f,%.9f,%.6f\n",
                  static_cast<unsigned long long>(r.evaluations), r.wall_seconds, r.best_speedup,
                  r.batch_mean_speedup, r.valid_fraction);
    out += line;
  }
  return out;
}

}  // namespace memplace::agents
