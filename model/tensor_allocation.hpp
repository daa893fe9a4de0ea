// A mapping's tensors as allocation problems (docs/allocation.md): in each memory, one buffer per
// tensor homed there, live over its live range, of its bytes. The cost model up to v1 asks only
// that the bytes live at every step fit the capacity; whether the tensors can also be given
// addresses is the allocation problem, which `memplace evaluate --allocation` answers.
#pragma once

#include <span>

#include "allocation/problem.hpp"
#include "model/simulator.hpp"

namespace memplace {

// The tensors `mapping` homes in `memory`, as buffers ("<layer>.weight", "<layer>.output") over
// the steps [live_first, live_last + 1), in a memory of its capacity and alignment. Throws
// std::invalid_argument (as Simulator::check_mapping) on a bad mapping.
allocation::Problem tensor_allocation_problem(const Simulator& sim,
                                              std::span<const MemoryIndex> mapping,
                                              std::size_t memory);

}  // namespace memplace
