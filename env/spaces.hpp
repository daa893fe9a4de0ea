// Gymnasium-style spaces: what an environment's observations and actions look like.
//
// Each space says what it contains (`contains`) and draws samples from a seeded Rng (`sample`).
// Actions are always passed as a span of int64: a Discrete action is one element, a MultiDiscrete
// action one element per dimension.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "base/rng.hpp"

namespace memplace {

struct Discrete {
  std::int64_t n = 0;
  bool contains(std::int64_t value) const { return value >= 0 && value < n; }
  // Uniform over [0, n), or over the allowed values when a mask (n entries, nonzero = allowed) is
  // given. Throws std::invalid_argument if the mask allows nothing or has the wrong size.
  std::int64_t sample(Rng& rng, std::span<const std::uint8_t> mask = {}) const;
  std::string describe() const { return "Discrete(" + std::to_string(n) + ")"; }
};

struct MultiDiscrete {
  std::vector<std::int64_t> nvec;
  bool contains(std::span<const std::int64_t> value) const;
  std::vector<std::int64_t> sample(Rng& rng) const;
  void sample(Rng& rng, std::span<std::int64_t> out) const;
  std::string describe() const;
};

// A float32 array of fixed shape with elementwise bounds [low, high].
struct Box {
  std::vector<std::size_t> shape;
  float low = 0;
  float high = 1;
  std::size_t size() const;
  bool contains(std::span<const float> value) const;  // also rejects NaN
  std::vector<float> sample(Rng& rng) const;
  std::string describe() const;
};

// A graph: a node feature matrix (num_nodes x node_features, each in [low, high]), an edge list
// (2 x num_edges, node indices), an action mask (mask_size bytes, 0 or 1) and, in the allocation
// game, an occupancy grid (occupancy_shape, each cell in [0, 1]; all zero elsewhere).
struct GraphSpace {
  std::size_t num_nodes = 0;
  std::size_t node_features = 0;
  std::size_t num_edges = 0;
  std::size_t mask_size = 0;
  float low = 0;
  float high = 1;
  std::array<std::size_t, 3> occupancy_shape{};
  Box node_box() const { return Box{{num_nodes, node_features}, low, high}; }
  std::string describe() const;
};

using Space = std::variant<Discrete, MultiDiscrete, Box, GraphSpace>;
std::string describe(const Space& space);

}  // namespace memplace
