#include "optimum/dynamics_optimum.hpp"

#include <array>
#include <string>

#include "base/errors.hpp"
#include "optimum/streaming_bound.hpp"

namespace memplace::optimum {

namespace {

MipFormulation streaming_mip(const Simulator& sim) {
  return build_streaming_relaxation(sim, {}, /*integral=*/true);
}

TimeFs streaming_capacity_bound(const Simulator& sim) {
  return streaming_bound_fs(sim);
}

// One line per dynamics with a part. The pinned MIP is the pinned latency itself; streaming's
// is a relaxation, and a bound for the addressed dynamics too, as no mapping is faster under v2
// than under v1 (docs/cost-model.md).
constexpr std::array kParts = {
    DynamicsOptimum{pinned_dynamics, true, build_formulation, nullptr},
    DynamicsOptimum{streaming_dynamics, false, streaming_mip, streaming_capacity_bound},
    DynamicsOptimum{addressed_dynamics, false, streaming_mip, streaming_capacity_bound},
};

}  // namespace

const DynamicsOptimum* find_optimum_part(const Simulator& sim) {
  for (const DynamicsOptimum& part : kParts)
    if (&part.dynamics() == &sim.dynamics_model()) return &part;
  return nullptr;
}

const DynamicsOptimum& optimum_part(const Simulator& sim) {
  if (const DynamicsOptimum* part = find_optimum_part(sim)) return *part;
  throw InputError("the " + std::string(sim.dynamics().name()) +
                   " dynamics has no optimum part (optimum/dynamics_optimum.cpp): no MIP, no "
                   "capacity-aware bound; its reference bound is the DynamicsModel's");
}

}  // namespace memplace::optimum
