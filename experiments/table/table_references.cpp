#include "experiments/table/table_references.hpp"

#include "optimum/headroom.hpp"

namespace memplace::experiments {

WorkloadReference workload_reference(const ModelSpec& model) {
  const optimum::Headroom h = optimum::headroom(model.build());
  WorkloadReference ref;
  ref.workload = model.workload;
  ref.capacity_free_bound_speedup = h.speedup(h.capacity_free_bound_fs);
  ref.bound_speedup = h.speedup(h.bound_fs);
  if (h.certificate) {
    ref.optimum_speedup = h.speedup(h.certificate->latency_fs);
    ref.optimum_proven = h.certificate->proven();
    ref.optimum_bound_speedup = h.speedup(h.certificate->bound_fs);
  }
  if (h.best_known) {
    ref.best_known_speedup = h.speedup(h.best_known->latency_fs);
    ref.best_known_source = h.best_known->source;
  }
  if (h.all_fast_rectified_fs) ref.all_fast_rectified_speedup = h.speedup(*h.all_fast_rectified_fs);
  return ref;
}

std::vector<WorkloadReference> workload_references(const TableConfig& config) {
  std::vector<WorkloadReference> references;
  for (const std::string& workload : config.workloads) {
    // The model the runs' environments build (memory time, dynamics, lookahead).
    references.push_back(workload_reference(config.model_of(workload)));
    references.back().workload = workload;  // the table's entry (a suite instance's id)
  }
  return references;
}

}  // namespace memplace::experiments
