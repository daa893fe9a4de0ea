#include "experiments/table_references.hpp"

#include "env/model/rectify.hpp"
#include "env/model/references.hpp"
#include "env/optimum/best_known.hpp"
#include "env/optimum/certificate.hpp"
#include "env/optimum/streaming_bound.hpp"
#include "env/single_step_env.hpp"

namespace memplace::experiments {

namespace {

// Every tensor in the fastest memory, rectified as the env's invalid=rectify does (0 if even
// the slowest memory overflows).
double all_fast_rectified_speedup(const Simulator& sim, TimeFs compiler_fs) {
  const Mapping all_fast(sim.num_tensors(), 0);
  const Rectified rectified = rectify(sim, all_fast);
  if (!rectified.valid) return 0;
  const Evaluation eval = sim.evaluate(rectified.mapping);
  return eval.valid ? speedup(compiler_fs, eval.latency_fs) : 0;
}

}  // namespace

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
    ref.bound_speedup = ref.capacity_free_bound_speedup;
    if (const auto c = optimum::shipped_certificate(sim)) {
      ref.optimum_speedup = speedup(r.compiler_fs, c->latency_fs);
      ref.optimum_proven = c->proven();
      ref.optimum_bound_speedup = speedup(r.compiler_fs, c->bound_fs);
      ref.bound_speedup = ref.optimum_bound_speedup;
    }
    if (sim.dynamics() == Dynamics::streaming)
      ref.bound_speedup =
          speedup(r.compiler_fs, optimum::tightest_streaming_bound_fs(sim, r.lower_bound_fs));
    if (const auto known = optimum::best_shipped_mapping(sim)) {
      ref.best_known_speedup = speedup(r.compiler_fs, known->latency_fs);
      ref.best_known_source = known->source;
    }
    ref.all_fast_rectified_speedup = all_fast_rectified_speedup(sim, r.compiler_fs);
    references.push_back(ref);
  }
  return references;
}

}  // namespace memplace::experiments
