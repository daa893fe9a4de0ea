// The order in which the one-decision-per-step environments (sequential, allocation game) visit
// tensors, and their shared reward timing option.
#pragma once

#include <cstdint>
#include <vector>

#include "env/model/simulator.hpp"

namespace memplace {

enum class PlacementOrder : std::uint8_t {
  schedule,  // layer by layer, weight before activation (default)
  msa,       // benefit per sqrt(bytes), descending, as XLA's memory-space assignment orders
};
enum class RewardTiming : std::uint8_t {
  dense,     // each step: the change its decision makes (default)
  terminal,  // 0 until the last step, then the episode's whole gain
};

// The tensors with bytes, in `order` (msa's benefit: the pinned latency a tensor alone saves in
// the fastest memory, from the all-slowest mapping).
std::vector<std::size_t> placement_order(const Simulator& sim, PlacementOrder order);

}  // namespace memplace
