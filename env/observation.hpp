// Graph observations (docs/envs/*.md lists every feature and its scaling).
//
// The static part — node features that depend only on the workload, and the edge list — is built
// once per simulator and shared by every environment and every observation. The per-step part
// (the current mapping, and for the sequential env which tensor is being placed) lives in the
// environment's own buffer and is updated in O(1) per step; step() and reset() return views of
// it, valid until the next call (copy() keeps one).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace memplace {

class Simulator;

struct StaticGraph {
  std::size_t num_nodes = 0;
  std::size_t num_features = 0;     // static features per node
  std::vector<float> nodes;         // num_nodes x num_features, row-major, each in [0, 1]
  std::vector<std::int64_t> edges;  // 2 x num_edges: sources, then targets (producer -> consumer)
  std::vector<std::string> feature_names;
  std::size_t num_edges() const { return edges.size() / 2; }
};

// The static node features of a workload (names in feature_names; scaling in docs/envs). With
// `streaming_features` (the -v1 environments), two more per layer: how much of its weight read,
// and of its input reads, from the slowest memory the compute of its prefetch window could hide.
std::shared_ptr<const StaticGraph> build_static_graph(const Simulator& sim,
                                                      bool streaming_features = false);

struct Observation;

// The malloc env's time x address occupancy of its addressed memories (docs/envs/malloc.md):
// {memories, time bins, address bins}, row-major; all zero in the other environments.
using GridShape = std::array<std::size_t, 3>;
inline std::size_t grid_size(const GridShape& shape) {
  return shape[0] * shape[1] * shape[2];
}

struct ObservationView {
  const StaticGraph* graph = nullptr;
  const std::shared_ptr<const StaticGraph>* owner = nullptr;  // lets copy() share the graph
  std::span<const float> dynamic;  // num_nodes x dynamic_features, row-major, each in [0, 1]
  std::size_t dynamic_features = 0;
  std::span<const std::string_view> dynamic_names;  // one per dynamic column (static storage)
  std::span<const std::uint8_t> action_mask;
  std::span<const float> occupancy;  // grid_size(occupancy_shape) cells, each in [0, 1]
  GridShape occupancy_shape{};

  std::size_t num_nodes() const { return graph->num_nodes; }
  std::size_t num_features() const { return graph->num_features + dynamic_features; }
  float feature(std::size_t node, std::size_t f) const;
  // The full node feature matrix (static then dynamic columns), num_nodes x num_features.
  void write_node_features(std::span<float> out) const;
  std::vector<float> node_features() const;
  // FNV-1a over every byte of the observation: equal observations have equal hashes.
  std::uint64_t hash() const;
  Observation copy() const;
};

// An owning observation (shares the static part).
struct Observation {
  std::shared_ptr<const StaticGraph> graph;
  std::vector<float> dynamic;
  std::size_t dynamic_features = 0;
  std::span<const std::string_view> dynamic_names;
  std::vector<std::uint8_t> action_mask;
  std::vector<float> occupancy;
  GridShape occupancy_shape{};
  ObservationView view() const {
    return ObservationView{graph.get(),   &graph,      dynamic,   dynamic_features,
                           dynamic_names, action_mask, occupancy, occupancy_shape};
  }
};

// A fixed-shape view for agents that need one (batching graphs of different sizes): node rows
// and edges padded to the given maxima, with masks marking the real ones.
struct PaddedObservation {
  std::size_t max_nodes = 0;
  std::size_t max_edges = 0;
  std::size_t num_features = 0;
  std::vector<float> nodes;               // max_nodes x num_features (padding rows are 0)
  std::vector<std::uint8_t> node_mask;    // max_nodes
  std::vector<std::int64_t> edges;        // 2 x max_edges (padding edges are 0 -> 0)
  std::vector<std::uint8_t> edge_mask;    // max_edges
  std::vector<std::uint8_t> action_mask;  // as in the observation
};
// Throws std::invalid_argument if the graph is larger than the maxima.
PaddedObservation pad(const ObservationView& obs, std::size_t max_nodes, std::size_t max_edges);

}  // namespace memplace
