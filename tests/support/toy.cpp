#include "tests/support/toy.hpp"

#include <random>

namespace memplace::toy {

Hardware hardware(MemoryTimeCombine combine) {
  Hardware hw;
  hw.name = "toy";
  hw.memories = {{"FAST", 1000, 1e9}, {"SLOW", 1'000'000, 1e8}};
  hw.peak_macs_per_s = 1e9;
  hw.mac_utilisation = 1;
  hw.vector_ops_per_s = 1e9;
  hw.layer_overhead_s = 5e-9;
  hw.memory_time = combine;
  return hw;
}

Hardware hardware_levels(std::size_t memories) {
  Hardware hw = hardware();
  const std::vector<Memory> all = {{"FAST", 1000, 1e9},           {"MID", 2000, 2e8},
                                   {"SLOW", 1'000'000, 1e8},      {"ARCHIVE", 1'000'000'000, 1e7},
                                   {"TAPE5", 2'000'000'000, 5e6}, {"TAPE6", 3'000'000'000, 4e6},
                                   {"TAPE7", 4'000'000'000, 3e6}, {"TAPE8", 5'000'000'000, 2e6}};
  hw.memories.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(memories));
  return hw;
}

Workload workload(const std::string& name, const std::vector<LayerSpec>& specs) {
  std::vector<Layer> layers;
  for (const LayerSpec& s : specs) {
    Layer l;
    l.name = s.name;
    l.op = OpKind::conv;
    l.macs = s.macs;
    l.weight_bytes = s.weight;
    l.weight_traffic_bytes = s.weight;
    l.output_bytes = s.output;
    l.external_input_bytes = s.external;
    for (const auto& [producer, bytes] : s.inputs) {
      for (std::size_t i = 0; i < layers.size(); ++i) {
        if (layers[i].name == producer) l.inputs.push_back({i, bytes});
      }
    }
    layers.push_back(l);
  }
  return Workload(WorkloadInfo{name, "toy", "tests/support/toy.cpp", 1}, std::move(layers));
}

Workload chain() {
  return workload("chain", {{"A", 100, 200, 300, {}, 100},
                            {"B", 1000, 100, 100, {{"A", 300}}},
                            {"C", 50, 0, 50, {{"B", 100}}}});
}

Workload diamond() {
  return workload("diamond", {{"A", 10, 100, 200, {}, 0},
                              {"B", 10, 100, 100, {{"A", 200}}},
                              {"C", 10, 100, 100, {{"A", 200}}},
                              {"D", 10, 100, 50, {{"B", 100}, {"C", 100}}}});
}

Workload residual() {
  return workload("residual", {{"A", 0, 0, 400, {}, 0},
                               {"B", 0, 0, 300, {{"A", 400}}},
                               {"C", 0, 0, 100, {{"B", 300}, {"A", 400}}}});
}

Workload huge_weight() {
  return workload("huge", {{"A", 0, 5000, 10, {}, 0}, {"B", 0, 10, 10, {{"A", 10}}}});
}

Workload tight() {
  return workload("tight", {{"A", 0, 0, 600, {}, 0},
                            {"B", 0, 0, 600, {{"A", 600}}},
                            {"C", 0, 0, 10, {{"A", 600}, {"B", 600}}}});
}

Mapping random_mapping(std::mt19937_64& rng, std::size_t tensors, std::size_t memories) {
  std::uniform_int_distribution<int> pick(0, static_cast<int>(memories) - 1);
  Mapping m(tensors);
  for (MemoryIndex& x : m)
    x = static_cast<MemoryIndex>(pick(rng));
  return m;
}

Workload random_workload(std::uint64_t seed, std::size_t count) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::vector<Layer> layers(count);
  for (std::size_t i = 0; i < count; ++i) {
    Layer& l = layers[i];
    l.name = "L" + std::to_string(i);
    l.op = static_cast<OpKind>(uniform(0, kOpKindCount - 1));
    l.macs = uniform(0, 3) == 0 ? 0 : uniform(0, 5000);
    l.vector_ops = uniform(0, 500);
    l.weight_bytes = uniform(0, 2) == 0 ? 0 : uniform(1, 800);
    l.weight_traffic_bytes = uniform(0, 4) == 0 ? l.weight_bytes / 3 : l.weight_bytes;
    l.output_bytes = uniform(0, 700);
    l.external_input_bytes = i == 0 ? uniform(0, 100) : 0;
    if (i > 0) {
      const std::int64_t fan_in = uniform(1, 3);
      for (std::int64_t k = 0; k < fan_in; ++k) {
        // Mostly recent producers, sometimes far back (long live ranges), sometimes repeated.
        const std::size_t back = static_cast<std::size_t>(
            uniform(0, 4) == 0
                ? uniform(1, static_cast<std::int64_t>(i))
                : uniform(1, std::min<std::int64_t>(2, static_cast<std::int64_t>(i))));
        const std::size_t p = i - back;
        l.inputs.push_back({p, layers[p].output_bytes});
      }
    }
  }
  return Workload(WorkloadInfo{"random" + std::to_string(seed), "random", "tests", 1},
                  std::move(layers));
}

}  // namespace memplace::toy
