#include "env/references.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "env/incremental.hpp"

namespace memplace {

Mapping all_slowest_mapping(const Simulator& sim) {
  return uniform_mapping(sim.num_layers(), sim.slowest());
}

Mapping compiler_mapping(const Simulator& sim) {
  IncrementalEvaluator ev(sim);
  const TimeFs base = ev.latency_fs();
  struct Candidate {
    std::size_t tensor;
    double benefit_per_byte;
  };
  std::vector<Candidate> order;
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    const std::int64_t bytes = sim.tensor_bytes(t);
    if (bytes == 0) continue;
    const TimeFs benefit = base - ev.preview_latency(t, 0);
    if (benefit <= 0) continue;
    order.push_back({t, static_cast<double>(benefit) / static_cast<double>(bytes)});
  }
  std::stable_sort(order.begin(), order.end(), [](const Candidate& a, const Candidate& b) {
    return a.benefit_per_byte > b.benefit_per_byte;
  });
  for (const Candidate& c : order) {
    for (MemoryIndex m = 0; m < sim.slowest(); ++m) {
      if (ev.fits(c.tensor, m)) {
        ev.move(c.tensor, m);
        break;
      }
    }
  }
  return Mapping(ev.mapping().begin(), ev.mapping().end());
}

TimeFs lower_bound_fs(const Simulator& sim) {
  const Hardware& hw = sim.hardware();
  double rate = hw.memories.front().bandwidth_bytes_per_s;
  if (sim.memory_time() == MemoryTimeCombine::max) {
    rate = 0;
    for (const Memory& m : hw.memories)
      rate += m.bandwidth_bytes_per_s;
  }
  TimeFs total = 0;
  const std::span<const Layer> layers = sim.workload().layers();
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    std::int64_t bytes =
        layer.weight_traffic_bytes + layer.output_bytes + layer.external_input_bytes;
    for (const InputEdge& e : layer.inputs)
      bytes += e.bytes;
    const auto mem = static_cast<TimeFs>(
        std::floor(static_cast<long double>(bytes) * 1e15L / static_cast<long double>(rate)));
    total += std::max(sim.compute_fs(l), mem) + sim.overhead_fs();
  }
  return total;
}

ReferenceLatencies reference_latencies(const Simulator& sim) {
  ReferenceLatencies r;
  r.all_slowest_fs = sim.evaluate(all_slowest_mapping(sim)).latency_fs;
  r.compiler_fs = sim.evaluate(compiler_mapping(sim)).latency_fs;
  r.lower_bound_fs = lower_bound_fs(sim);
  return r;
}

}  // namespace memplace
