#include "env/observation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "base/portable_math.hpp"
#include "model/simulator.hpp"

namespace memplace {

namespace {

// Sizes span many orders of magnitude; log2 scaling keeps them comparable across workloads
// (the same scale everywhere, so a policy transfers between workloads): 2^40 (~10^12) maps to 1.
float log_scaled(double value) {
  return static_cast<float>(std::min(1.0, portable::log2(1.0 + value) / 40.0));
}
float count_scaled(double value) {  // degrees: 255 maps to 1
  return static_cast<float>(std::min(1.0, portable::log2(1.0 + value) / 8.0));
}

// The compute time of layers [first, last] (none when first > last).
TimeFs window_compute(const Simulator& sim, std::size_t first, std::size_t last) {
  TimeFs total = 0;
  for (std::size_t j = first; j <= last && j < sim.num_layers(); ++j)
    total += sim.compute_fs(j);
  return total;
}

// min(1, hideable / read): the share of a read from the slowest memory that the compute of its
// window could hide (1 when there is nothing to read).
float cover(TimeFs hideable, TimeFs read) {
  if (read <= 0) return 1.0f;
  return static_cast<float>(
      std::min(1.0, static_cast<double>(hideable) / static_cast<double>(read)));
}

// The -v1 features of layer l: weight and input prefetch cover (docs/envs/README.md).
void add_streaming_features(const Simulator& sim, std::size_t l, float* f) {
  const auto lookahead = static_cast<std::size_t>(sim.hardware().dma.lookahead);
  const std::size_t slowest = sim.slowest();
  const std::size_t first = l >= lookahead ? l - lookahead : 0;
  const Layer& layer = sim.workload().layer(l);
  // A gathered weight (an embedding) is not prefetchable.
  const bool gathered = layer.weight_traffic_bytes != layer.weight_bytes;
  const TimeFs window = gathered || l == 0 ? 0 : window_compute(sim, first, l - 1);
  f[0] = cover(window, sim.weight_fs(l, slowest));
  TimeFs hidden = 0, read = 0;
  for (const Simulator::Dependency& d : sim.in_edges(l)) {
    const TimeFs r = sim.read_fs(d.index, slowest);
    const std::size_t from = std::max(first, d.layer + 1);
    hidden += from < l ? std::min(r, window_compute(sim, from, l - 1)) : 0;
    read += r;
  }
  f[1] = cover(hidden, read);
}

}  // namespace

std::shared_ptr<const StaticGraph> build_static_graph(const Simulator& sim,
                                                      bool streaming_features) {
  auto g = std::make_shared<StaticGraph>();
  const Workload& w = sim.workload();
  const std::size_t n = w.size();
  for (int op = 0; op < kOpKindCount; ++op) {
    g->feature_names.push_back("op_" + std::string(op_name(static_cast<OpKind>(op))));
  }
  for (const char* name : {"log_macs", "log_vector_ops", "log_weight_bytes",
                           "log_weight_traffic_bytes", "log_output_bytes", "log_input_bytes",
                           "live_range", "position", "in_degree", "out_degree"}) {
    g->feature_names.emplace_back(name);
  }
  if (streaming_features) {
    g->feature_names.emplace_back("weight_prefetch_cover");
    g->feature_names.emplace_back("input_prefetch_cover");
  }
  g->num_nodes = n;
  g->num_features = g->feature_names.size();
  g->nodes.assign(n * g->num_features, 0.0f);
  const float span = static_cast<float>(std::max<std::size_t>(1, n - 1));
  for (std::size_t l = 0; l < n; ++l) {
    const Layer& layer = w.layer(l);
    float* row = &g->nodes[l * g->num_features];
    row[static_cast<std::size_t>(layer.op)] = 1.0f;
    std::int64_t input_bytes = layer.external_input_bytes;
    for (const InputEdge& e : layer.inputs)
      input_bytes += e.bytes;
    float* f = row + kOpKindCount;
    *f++ = log_scaled(static_cast<double>(layer.macs));
    *f++ = log_scaled(static_cast<double>(layer.vector_ops));
    *f++ = log_scaled(static_cast<double>(layer.weight_bytes));
    *f++ = log_scaled(static_cast<double>(layer.weight_traffic_bytes));
    *f++ = log_scaled(static_cast<double>(layer.output_bytes));
    *f++ = log_scaled(static_cast<double>(input_bytes));
    *f++ = static_cast<float>(w.last_use(l) - l) / span;
    *f++ = static_cast<float>(l) / span;
    *f++ = count_scaled(static_cast<double>(sim.in_edges(l).size()));
    *f++ = count_scaled(static_cast<double>(sim.out_edges(l).size()));
    if (streaming_features) add_streaming_features(sim, l, f);
  }
  // Edges with parallel ones merged, as the simulator sees them.
  std::vector<std::int64_t> sources;
  std::vector<std::int64_t> targets;
  for (std::size_t l = 0; l < n; ++l) {
    for (const Simulator::Dependency& d : sim.in_edges(l)) {
      sources.push_back(static_cast<std::int64_t>(d.layer));
      targets.push_back(static_cast<std::int64_t>(l));
    }
  }
  g->edges = std::move(sources);
  g->edges.insert(g->edges.end(), targets.begin(), targets.end());
  return g;
}

float ObservationView::feature(std::size_t node, std::size_t f) const {
  if (f < graph->num_features) return graph->nodes[node * graph->num_features + f];
  return dynamic[node * dynamic_features + (f - graph->num_features)];
}

void ObservationView::write_node_features(std::span<float> out) const {
  const std::size_t fs = graph->num_features;
  const std::size_t fd = dynamic_features;
  if (out.size() != num_nodes() * (fs + fd)) {
    throw std::invalid_argument("write_node_features: output has the wrong size");
  }
  for (std::size_t i = 0; i < num_nodes(); ++i) {
    std::copy_n(&graph->nodes[i * fs], fs, &out[i * (fs + fd)]);
    if (fd != 0) std::copy_n(&dynamic[i * fd], fd, &out[i * (fs + fd) + fs]);
  }
}

std::vector<float> ObservationView::node_features() const {
  std::vector<float> out(num_nodes() * num_features());
  write_node_features(out);
  return out;
}

std::uint64_t ObservationView::hash() const {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&h](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i)
      h = (h ^ p[i]) * 0x100000001b3ULL;
  };
  mix(graph->nodes.data(), graph->nodes.size() * sizeof(float));
  mix(graph->edges.data(), graph->edges.size() * sizeof(std::int64_t));
  mix(dynamic.data(), dynamic.size() * sizeof(float));
  mix(action_mask.data(), action_mask.size());
  mix(occupancy.data(), occupancy.size() * sizeof(float));
  return h;
}

Observation ObservationView::copy() const {
  Observation o;
  o.graph = owner != nullptr ? *owner : std::make_shared<StaticGraph>(*graph);
  o.dynamic.assign(dynamic.begin(), dynamic.end());
  o.dynamic_features = dynamic_features;
  o.dynamic_names = dynamic_names;
  o.action_mask.assign(action_mask.begin(), action_mask.end());
  o.occupancy.assign(occupancy.begin(), occupancy.end());
  o.occupancy_shape = occupancy_shape;
  return o;
}

PaddedObservation pad(const ObservationView& obs, std::size_t max_nodes, std::size_t max_edges) {
  const std::size_t n = obs.num_nodes();
  const std::size_t e = obs.graph->num_edges();
  if (n > max_nodes || e > max_edges) {
    throw std::invalid_argument("pad: graph has " + std::to_string(n) + " nodes and " +
                                std::to_string(e) + " edges; maxima are " +
                                std::to_string(max_nodes) + " and " + std::to_string(max_edges));
  }
  PaddedObservation p;
  p.max_nodes = max_nodes;
  p.max_edges = max_edges;
  p.num_features = obs.num_features();
  p.nodes.assign(max_nodes * p.num_features, 0.0f);
  obs.write_node_features(std::span<float>(p.nodes).first(n * p.num_features));
  p.node_mask.assign(max_nodes, 0);
  std::fill_n(p.node_mask.begin(), n, 1);
  p.edges.assign(2 * max_edges, 0);
  std::copy_n(obs.graph->edges.begin(), e, p.edges.begin());
  std::copy_n(obs.graph->edges.begin() + static_cast<std::ptrdiff_t>(e), e,
              p.edges.begin() + static_cast<std::ptrdiff_t>(max_edges));
  p.edge_mask.assign(max_edges, 0);
  std::fill_n(p.edge_mask.begin(), e, 1);
  p.action_mask.assign(obs.action_mask.begin(), obs.action_mask.end());
  return p;
}

}  // namespace memplace
