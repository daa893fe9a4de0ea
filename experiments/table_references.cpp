#include "experiments/table_references.hpp"

#include "env/model/references.hpp"
#include "env/optimum/certificate.hpp"

namespace memplace::experiments {

std::vector<WorkloadReference> workload_references(const TableConfig& config) {
  SimulatorOptions options;
  // As the runs' environments read it: "hardware" (or nothing) keeps the hardware model's rule.
  if (const auto rule = config.env_options.find("memory_time"); rule != config.env_options.end())
    options.memory_time = combine_from_name(rule->second);
  const Hardware hardware = load_hardware(config.hardware);
  std::vector<WorkloadReference> references;
  for (const std::string& workload : config.workloads) {
    const Simulator sim(load_workload(workload), hardware, options);
    const ReferenceLatencies r = reference_latencies(sim);
    WorkloadReference ref;
    ref.workload = workload;
    ref.capacity_free_bound_speedup = speedup(r.compiler_fs, r.lower_bound_fs);
    if (const auto c = optimum::shipped_certificate(sim)) {
      ref.optimum_speedup = speedup(r.compiler_fs, c->latency_fs);
      ref.optimum_proven = c->proven();
      ref.optimum_bound_speedup = speedup(r.compiler_fs, c->bound_fs);
    }
    references.push_back(ref);
  }
  return references;
}

}  // namespace memplace::experiments
