// The optimum's part of each dynamics (docs/architecture.md, "Adding a dynamics"): the MIP
// `memplace optimum` solves under it and the capacity-aware bound the headroom reports. A
// dynamics without a part has its DynamicsModel's reference bound only, and `memplace optimum`
// refuses it with an error that says so.
#pragma once

#include "model/simulator.hpp"
#include "optimum/formulation.hpp"

namespace memplace::optimum {

struct DynamicsOptimum {
  const DynamicsModel& (*dynamics)() = nullptr;  // its function in model/dynamics/registered.hpp
  // Whether the MIP's objective is the dynamics' latency (its optimum exact); otherwise a
  // relaxation: its bound holds for every valid mapping, its mappings are candidates.
  bool exact = false;
  MipFormulation (*formulation)(const Simulator& sim) = nullptr;
  // A bound on every valid mapping that counts capacities (null: none beyond the references).
  TimeFs (*capacity_aware_bound_fs)(const Simulator& sim) = nullptr;
};

// The part of the simulator's dynamics, or null when it has none.
const DynamicsOptimum* find_optimum_part(const Simulator& sim);
// The same; InputError naming the dynamics when it has none.
const DynamicsOptimum& optimum_part(const Simulator& sim);

}  // namespace memplace::optimum
