// A batch of graphs for the GNN: the disjoint union of several observations (as PyTorch Geometric
// batches graphs), with each node's producers and consumers in compressed rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "agents/nn/layers.hpp"
#include "env/observation.hpp"

namespace memplace::nn {

class GraphBatch {
 public:
  GraphBatch() = default;
  // One graph per observation. All must have the same number of features; throws
  // std::invalid_argument otherwise, or on an empty graph or an edge naming no node.
  explicit GraphBatch(std::span<const ObservationView> graphs);
  explicit GraphBatch(const ObservationView& graph)
      : GraphBatch(std::span<const ObservationView>(&graph, 1)) {}
  // From raw arrays (tests, the PyTorch fixture): features num_nodes x num_features, edges as in
  // StaticGraph (2 x E: sources, then targets).
  void add_graph(std::span<const float> features, std::size_t num_features,
                 std::span<const std::int64_t> edges);

  std::size_t num_graphs() const { return offsets_.size() - 1; }
  std::size_t num_nodes() const { return offsets_.back(); }
  std::size_t num_features() const { return num_features_; }
  std::size_t graph_size(std::size_t g) const { return offsets_[g + 1] - offsets_[g]; }
  std::span<const std::uint32_t> offsets() const { return offsets_; }  // num_graphs + 1
  std::span<const float> features() const { return features_; }        // num_nodes x features
  Neighbours producers() const { return {in_offsets_, in_index_}; }
  Neighbours consumers() const { return {out_offsets_, out_index_}; }

 private:
  void rebuild_neighbours(std::span<const std::int64_t> all_edges);

  std::size_t num_features_ = 0;
  std::vector<std::uint32_t> offsets_{0};
  std::vector<float> features_;
  std::vector<std::int64_t> edges_;  // 2 x E over global node numbers: (source, target) pairs
  std::vector<std::uint32_t> in_offsets_{0}, in_index_, out_offsets_{0}, out_index_;
};

}  // namespace memplace::nn
