#include "model/references.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "allocation/greedy_packing.hpp"
#include "model/incremental.hpp"

namespace memplace {

Mapping all_slowest_mapping(const Simulator& sim) {
  return uniform_mapping(sim.num_layers(), sim.slowest());
}

namespace {

// The tensors worth moving to the fastest memory, by (pinned) benefit per byte, descending (ties:
// lower tensor id); `ev` is at the all-slowest mapping.
std::vector<std::size_t> compiler_order(const Simulator& sim, IncrementalEvaluator& ev) {
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
  std::vector<std::size_t> tensors;
  for (const Candidate& c : order)
    tensors.push_back(c.tensor);
  return tensors;
}

std::int64_t capacity_of(const Simulator& sim, std::span<const std::int64_t> capacities,
                         std::size_t m) {
  return capacities.empty() ? sim.capacity(m) : capacities[m];
}

}  // namespace

Mapping pinned_compiler_mapping(const Simulator& sim, std::span<const std::int64_t> capacities) {
  IncrementalEvaluator ev(sim);
  for (const std::size_t t : compiler_order(sim, ev)) {
    for (MemoryIndex m = 0; m < sim.slowest(); ++m) {
      if (ev.fits(t, m, capacity_of(sim, capacities, m))) {
        ev.move(t, m);
        break;
      }
    }
  }
  return Mapping(ev.mapping().begin(), ev.mapping().end());
}

Mapping addressed_compiler_mapping(const Simulator& sim, std::span<const std::int64_t> capacities) {
  IncrementalEvaluator ev(sim);
  Mapping mapping = all_slowest_mapping(sim);
  struct Placed {
    std::int64_t offset, end;
    std::size_t first, last;
  };
  std::vector<std::vector<Placed>> placed(sim.num_memories());
  std::vector<std::pair<std::int64_t, std::int64_t>> taken;
  for (const std::size_t t : compiler_order(sim, ev)) {
    const std::size_t first = sim.live_first(t), last = sim.live_last(t);
    for (MemoryIndex m = 0; m < sim.slowest(); ++m) {
      taken.clear();
      for (const Placed& p : placed[m])
        if (p.first <= last && p.last >= first) taken.emplace_back(p.offset, p.end);
      std::ranges::sort(taken);
      const std::int64_t offset = allocation::fit_offset(
          taken, sim.tensor_bytes(t), allocation::FitRule::best_fit,
          sim.hardware().memories[m].alignment_bytes, capacity_of(sim, capacities, m));
      if (offset < 0) continue;
      placed[m].push_back({offset, offset + sim.tensor_bytes(t), first, last});
      mapping[t] = m;
      break;
    }
  }
  return mapping;
}

Mapping best_over_reserves(const Simulator& sim, CapacityCompiler compile, bool require_valid) {
  const std::vector<std::size_t> staging = sim.hardware().staging_memories();
  // Reserve combinations as indices into kStagingReserves, one digit per staging memory (or one
  // shared digit beyond three memories), counted up from all zeros.
  const std::size_t digits = staging.size() <= 3 ? staging.size() : 1;
  std::size_t combinations = 1;
  for (std::size_t d = 0; d < digits; ++d)
    combinations *= kStagingReserves.size();
  Mapping best;
  TimeFs best_fs = 0;
  Evaluation scored;
  std::vector<std::int64_t> capacities(sim.num_memories());
  for (std::size_t code = 0; code < combinations; ++code) {
    for (std::size_t m = 0; m < sim.num_memories(); ++m)
      capacities[m] = sim.capacity(m);
    std::size_t rest = code;
    for (std::size_t i = 0; i < staging.size(); ++i) {
      const double reserve = kStagingReserves[rest % kStagingReserves.size()];
      if (digits > 1) rest /= kStagingReserves.size();
      const std::size_t m = staging[i];
      capacities[m] -= static_cast<std::int64_t>(static_cast<double>(capacities[m]) * reserve);
    }
    Mapping candidate = compile(sim, capacities);
    sim.evaluate(candidate, scored);
    if (!scored.valid && require_valid) continue;
    if (best.empty() || scored.latency_fs < best_fs) {
      best = std::move(candidate);
      best_fs = scored.latency_fs;
    }
  }
  return best.empty() ? all_slowest_mapping(sim) : best;
}

Mapping compiler_mapping(const Simulator& sim) {
  return sim.dynamics_model().compiler_mapping(sim);
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

TimeFs slowest_port_bound_fs(const Simulator& sim) {
  std::int64_t largest_faster = 0;
  for (std::size_t m = 0; m < sim.slowest(); ++m)
    largest_faster = std::max(largest_faster, sim.capacity(m));
  const std::span<const Layer> layers = sim.workload().layers();
  std::int64_t bytes = 0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    bytes += layer.external_input_bytes;
    if (layer.weight_bytes > largest_faster) bytes += layer.weight_traffic_bytes;
    for (const InputEdge& e : layer.inputs)
      bytes += layers[e.producer].output_bytes > largest_faster ? e.bytes : 0;
    if (layer.output_bytes > largest_faster) bytes += layer.output_bytes;
  }
  const double rate = sim.hardware().memories[sim.slowest()].bandwidth_bytes_per_s;
  return static_cast<TimeFs>(
      std::floor(static_cast<long double>(bytes) * 1e15L / static_cast<long double>(rate)));
}

TimeFs compute_bound_fs(const Simulator& sim) {
  TimeFs total = 0;
  for (std::size_t l = 0; l < sim.num_layers(); ++l)
    total += sim.compute_fs(l) + sim.overhead_fs();
  return total;
}

TimeFs dma_lower_bound_fs(const Simulator& sim) {
  return std::max({lower_bound_fs(sim), slowest_port_bound_fs(sim), compute_bound_fs(sim)});
}

ReferenceLatencies reference_latencies(const Simulator& sim) {
  ReferenceLatencies r;
  r.all_slowest_fs = sim.evaluate(all_slowest_mapping(sim)).latency_fs;
  r.compiler_fs = sim.evaluate(compiler_mapping(sim)).latency_fs;
  r.lower_bound_fs = sim.dynamics_model().lower_bound_fs(sim);
  return r;
}

}  // namespace memplace
