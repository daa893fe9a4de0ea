#include "agents/node_features.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "base/errors.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace::agents {
namespace {

constexpr std::array<std::string_view, 11> kChipRelativeNames = {
    "weight_of_fastest", "weight_of_fast",       "weight_gain",    "weight_gain_share",
    "output_of_fastest", "output_of_fast",       "output_gain",    "output_gain_share",
    "output_live_time",  "live_output_pressure", "weight_pressure"};

// x / (1 + x): a ratio in [0, inf) onto [0, 1), a ratio of 1 at 0.5 — the scale of every column, so
// that "as large as the capacity" or "as long as the compute" reads the same on every chip.
float squashed(double ratio) {
  if (!(ratio > 0)) return 0.0f;
  return static_cast<float>(ratio / (1.0 + ratio));
}

double ratio(double value, double of) {
  return of > 0 ? value / of : 0.0;
}

// The chip-relative columns of every layer, num_layers x 11, row-major.
std::vector<float> chip_relative_columns(const Simulator& sim) {
  const std::size_t n = sim.num_layers();
  const std::size_t fastest = 0;
  const std::size_t slowest = sim.slowest();
  double fast_capacity = 0;  // every memory but the slowest (the only one if there is one)
  for (std::size_t m = 0; m < slowest; ++m)
    fast_capacity += static_cast<double>(sim.capacity(m));
  if (slowest == 0) fast_capacity = static_cast<double>(sim.capacity(0));
  const double fastest_capacity = static_cast<double>(sim.capacity(fastest));

  // Compute time per step and its prefix sums: lifetimes are measured in it, not in steps.
  std::vector<double> time_before(n + 1, 0.0);
  for (std::size_t l = 0; l < n; ++l)
    time_before[l + 1] = time_before[l] + static_cast<double>(sim.compute_fs(l));
  const double total_time = time_before[n];
  const double mean_time = n > 0 ? total_time / static_cast<double>(n) : 0.0;

  // Output bytes live at each step (a difference array over the outputs' live ranges), and the
  // weights' bytes, which live the whole schedule.
  std::vector<double> live(n + 1, 0.0);
  double weight_bytes = 0;
  for (std::size_t l = 0; l < n; ++l) {
    const std::size_t out = tensor_id(l, TensorKind::activation);
    const auto bytes = static_cast<double>(sim.tensor_bytes(out));
    live[sim.live_first(out)] += bytes;
    live[sim.live_last(out) + 1] -= bytes;
    weight_bytes += static_cast<double>(sim.tensor_bytes(tensor_id(l, TensorKind::weight)));
  }
  for (std::size_t s = 1; s <= n; ++s)
    live[s] += live[s - 1];

  std::vector<float> columns(n * kChipRelativeNames.size());
  for (std::size_t l = 0; l < n; ++l) {
    const auto compute = static_cast<double>(sim.compute_fs(l));
    const std::size_t weight = tensor_id(l, TensorKind::weight);
    const std::size_t out = tensor_id(l, TensorKind::activation);
    const auto w_bytes = static_cast<double>(sim.tensor_bytes(weight));
    const auto o_bytes = static_cast<double>(sim.tensor_bytes(out));
    // What the fastest memory saves over the slowest: the weight's read; the output's write and
    // every consumer's read of it.
    const auto w_gain =
        static_cast<double>(sim.weight_fs(l, slowest)) - static_cast<double>(sim.weight_fs(l, 0));
    double o_gain =
        static_cast<double>(sim.output_fs(l, slowest)) - static_cast<double>(sim.output_fs(l, 0));
    double consumers_compute = compute;
    for (const Simulator::Dependency& d : sim.out_edges(l)) {
      o_gain += static_cast<double>(sim.read_fs(d.index, slowest)) -
                static_cast<double>(sim.read_fs(d.index, 0));
      consumers_compute += static_cast<double>(sim.compute_fs(d.layer));
    }
    const std::size_t first = sim.live_first(out);
    const std::size_t last = sim.live_last(out);
    const double peak_live =
        *std::max_element(live.begin() + static_cast<std::ptrdiff_t>(first),
                          live.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    float* row = &columns[l * kChipRelativeNames.size()];
    *row++ = squashed(ratio(w_bytes, fastest_capacity));
    *row++ = squashed(ratio(w_bytes, fast_capacity));
    *row++ = squashed(ratio(w_gain, compute));
    *row++ = squashed(ratio(w_gain, mean_time));
    *row++ = squashed(ratio(o_bytes, fastest_capacity));
    *row++ = squashed(ratio(o_bytes, fast_capacity));
    *row++ = squashed(ratio(o_gain, consumers_compute));
    *row++ = squashed(ratio(o_gain, mean_time));
    *row++ = static_cast<float>(
        std::min(1.0, ratio(time_before[last + 1] - time_before[first], total_time)));
    *row++ = squashed(ratio(peak_live, fast_capacity));
    *row++ = squashed(ratio(weight_bytes, fast_capacity));
  }
  return columns;
}

}  // namespace

std::string_view name_of(NodeFeatures features) {
  return features == NodeFeatures::observation ? "observation" : "chip-relative";
}

NodeFeatures parse_node_features(std::string_view name) {
  for (const NodeFeatures f : kNodeFeatureSets)
    if (name == name_of(f)) return f;
  throw InputError("unknown node features '" + std::string(name) +
                   "' (the sets: observation, chip-relative)");
}

std::span<const std::string_view> chip_relative_feature_names() {
  return kChipRelativeNames;
}

Observation with_node_features(const Observation& observation, const Simulator& sim,
                               NodeFeatures features) {
  if (features == NodeFeatures::observation) return observation;
  const StaticGraph& from = *observation.graph;
  const std::size_t n = from.num_nodes;
  const std::vector<float> extra = chip_relative_columns(sim);
  const std::size_t added = kChipRelativeNames.size();
  auto graph = std::make_shared<StaticGraph>(from);
  graph->num_features = from.num_features + added;
  for (const std::string_view name : kChipRelativeNames)
    graph->feature_names.emplace_back(name);
  graph->nodes.resize(n * graph->num_features);
  for (std::size_t l = 0; l < n; ++l) {
    float* row = &graph->nodes[l * graph->num_features];
    std::copy_n(&from.nodes[l * from.num_features], from.num_features, row);
    std::copy_n(&extra[l * added], added, row + from.num_features);
  }
  Observation out = observation;
  out.graph = std::move(graph);
  return out;
}

}  // namespace memplace::agents
