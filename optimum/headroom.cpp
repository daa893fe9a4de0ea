#include "optimum/headroom.hpp"

#include <algorithm>

#include "model/rectify.hpp"
#include "model/references.hpp"
#include "optimum/dynamics_optimum.hpp"

namespace memplace::optimum {

namespace {

std::optional<TimeFs> all_fast_rectified_fs(const Simulator& sim) {
  const Rectified rectified = rectify(sim, Mapping(sim.num_tensors(), 0));
  if (!rectified.valid) return std::nullopt;
  const Evaluation eval = sim.evaluate(rectified.mapping);
  return eval.valid ? std::optional(eval.latency_fs) : std::nullopt;
}

}  // namespace

Headroom headroom(const Simulator& sim) {
  const ReferenceLatencies references = reference_latencies(sim);
  Headroom h;
  h.all_slowest_fs = references.all_slowest_fs;
  h.compiler_fs = references.compiler_fs;
  h.all_fast_rectified_fs = all_fast_rectified_fs(sim);
  h.certificate = shipped_certificate(sim);
  h.best_known = best_shipped_mapping(sim);
  h.capacity_free_bound_fs = lower_bound_fs(sim);
  h.bound_fs = h.certificate ? h.certificate->bound_fs : references.lower_bound_fs;
  if (has_dma(sim.dynamics())) {
    h.pinned_compiler_fs = sim.evaluate(pinned_compiler_mapping(sim)).latency_fs;
    h.slowest_port_bound_fs = slowest_port_bound_fs(sim);
    h.compute_bound_fs = compute_bound_fs(sim);
  }
  const DynamicsOptimum* part = find_optimum_part(sim);
  if (part && part->capacity_aware_bound_fs) {
    h.capacity_aware_bound_fs = part->capacity_aware_bound_fs(sim);
    h.bound_fs = std::max(h.bound_fs, *h.capacity_aware_bound_fs);
  }
  return h;
}

}  // namespace memplace::optimum
