#include "experiments/table_references.hpp"

#include "env/model/references.hpp"
#include "env/optimum/certificate.hpp"
#include "env/single_step_env.hpp"

namespace memplace::experiments {

std::vector<WorkloadReference> workload_references(const TableConfig& config) {
  std::vector<WorkloadReference> references;
  for (const std::string& workload : config.workloads) {
    // The simulator the runs' environments build (memory time, dynamics, lookahead).
    OptionMap options = config.env_options;
    options["workload"] = workload;
    options["hardware"] = config.hardware;
    const std::unique_ptr<SingleStepEnv> env =
        SingleStepEnv::make_generic(options, config.env_version);
    const Simulator& sim = env->simulator();
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
