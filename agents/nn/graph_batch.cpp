#include "agents/nn/graph_batch.hpp"

#include <stdexcept>
#include <string>

namespace memplace::nn {

GraphBatch::GraphBatch(std::span<const ObservationView> graphs) {
  for (const ObservationView& obs : graphs)
    add_graph(obs.node_features(), obs.num_features(), obs.graph->edges);
}

void GraphBatch::add_graph(std::span<const float> features, std::size_t num_features,
                           std::span<const std::int64_t> edges) {
  if (num_features == 0 || features.size() % num_features != 0)
    throw std::invalid_argument("GraphBatch: " + std::to_string(features.size()) +
                                " feature values are not a whole number of rows of " +
                                std::to_string(num_features));
  if (num_graphs() > 0 && num_features != num_features_)
    throw std::invalid_argument("GraphBatch: a graph with " + std::to_string(num_features) +
                                " features in a batch of graphs with " +
                                std::to_string(num_features_));
  const std::size_t nodes = features.size() / num_features;
  if (nodes == 0) throw std::invalid_argument("GraphBatch: a graph has no nodes");
  if (edges.size() % 2 != 0)
    throw std::invalid_argument("GraphBatch: the edge list has an odd length");
  const std::size_t first = num_nodes();
  const std::size_t num_edges = edges.size() / 2;
  for (std::size_t e = 0; e < num_edges; ++e) {
    const std::int64_t s = edges[e], t = edges[num_edges + e];
    if (s < 0 || t < 0 || static_cast<std::size_t>(s) >= nodes ||
        static_cast<std::size_t>(t) >= nodes)
      throw std::invalid_argument("GraphBatch: edge " + std::to_string(e) + " (" +
                                  std::to_string(s) + " -> " + std::to_string(t) +
                                  ") names a node outside 0.." + std::to_string(nodes - 1));
    edges_.push_back(static_cast<std::int64_t>(first) + s);
    edges_.push_back(static_cast<std::int64_t>(first) + t);
  }
  num_features_ = num_features;
  features_.insert(features_.end(), features.begin(), features.end());
  offsets_.push_back(static_cast<std::uint32_t>(first + nodes));
  rebuild_neighbours(edges_);
}

namespace {

// Compressed rows of `key -> value` over `nodes` rows, values in edge order within a row.
void compress(std::span<const std::int64_t> pairs, std::size_t nodes, bool by_target,
              std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& index) {
  offsets.assign(nodes + 1, 0);
  const std::size_t n = pairs.size() / 2;
  for (std::size_t e = 0; e < n; ++e)
    ++offsets[pairs[2 * e + (by_target ? 1 : 0)] + 1];
  for (std::size_t i = 0; i < nodes; ++i)
    offsets[i + 1] += offsets[i];
  index.assign(n, 0);
  std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t e = 0; e < n; ++e) {
    const auto key = pairs[2 * e + (by_target ? 1 : 0)];
    const auto value = pairs[2 * e + (by_target ? 0 : 1)];
    index[fill[key]++] = static_cast<std::uint32_t>(value);
  }
}

}  // namespace

void GraphBatch::rebuild_neighbours(std::span<const std::int64_t> all_edges) {
  compress(all_edges, num_nodes(), /*by_target=*/true, in_offsets_, in_index_);
  compress(all_edges, num_nodes(), /*by_target=*/false, out_offsets_, out_index_);
}

}  // namespace memplace::nn
