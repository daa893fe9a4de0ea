// How much of each memory a mapping uses at every step of the schedule: pinned weights plus the
// activations live at that step (docs/cost-model.md). Its maximum over the steps is the
// Evaluation's peak_bytes; plots show the whole profile against each memory's capacity.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"

namespace memplace {

// bytes[m][s]: bytes in memory m at schedule step s (num_memories x num_layers).
struct MemoryProfile {
  std::vector<std::vector<std::int64_t>> bytes;
};

// Throws std::invalid_argument (as Simulator::check_mapping) on a bad mapping.
MemoryProfile memory_profile(const Simulator& sim, std::span<const MemoryIndex> mapping);

}  // namespace memplace
