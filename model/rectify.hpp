// Rectification: turning an invalid mapping into a valid one, as a compiler would.
#pragma once

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"

namespace memplace {

struct Rectified {
  Mapping mapping;
  int demotions = 0;   // tensors moved one memory slower
  bool valid = false;  // false only if the slowest memory itself overflows
};

// While some memory overflows, take the fastest overflowing one and demote, to the next slower
// memory, the tensor occupying it at its peak step (any of its weights, or an activation live at
// that step) whose demotion costs the least latency per byte. Deterministic (ties: lower tensor).
// Then, while the dynamics cannot place some memory's tensors (the addressed dynamics: no
// addresses; DynamicsModel::unplaceable_memory), the fastest such memory gives up a tensor at its
// peak step by the same rule.
Rectified rectify(const Simulator& sim, std::span<const MemoryIndex> mapping);

}  // namespace memplace
