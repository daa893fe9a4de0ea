// A mapping places every tensor of a workload in one memory.
//
// Layer l owns two tensors: its weight (tensor id 2l) and its output activation (tensor id 2l+1),
// so a mapping is a flat vector of 2N memory indices — exactly the single-step environment's
// MultiDiscrete([M] * 2N) action, viewed as an N x 2 array (weight, activation) per layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplace {

enum class TensorKind : std::uint8_t { weight = 0, activation = 1 };

using MemoryIndex = std::uint8_t;
using Mapping = std::vector<MemoryIndex>;

constexpr std::size_t tensor_id(std::size_t layer, TensorKind kind) {
  return 2 * layer + static_cast<std::size_t>(kind);
}
constexpr std::size_t tensor_layer(std::size_t tensor) {
  return tensor / 2;
}
constexpr TensorKind tensor_kind(std::size_t tensor) {
  return static_cast<TensorKind>(tensor % 2);
}

// Every tensor in memory `m` (e.g. all-DRAM: uniform_mapping(n, hw.slowest())).
inline Mapping uniform_mapping(std::size_t num_layers, MemoryIndex m) {
  return Mapping(2 * num_layers, m);
}

}  // namespace memplace
