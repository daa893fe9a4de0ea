#include "model/rectify.hpp"

#include <limits>

#include "model/incremental.hpp"

namespace memplace {

Rectified rectify(const Simulator& sim, std::span<const MemoryIndex> mapping) {
  IncrementalEvaluator ev(sim, mapping);
  Rectified result;
  while (true) {
    std::size_t m = 0;
    if (ev.valid()) {
      m = sim.dynamics_model().unplaceable_memory(sim, ev.mapping()).value_or(sim.slowest());
      result.valid = m == sim.slowest();
      if (result.valid) break;  // bytes and addresses fit
    } else {
      while (ev.overflow_bytes(m) == 0)
        ++m;
    }
    if (m == sim.slowest()) break;  // nowhere slower to go
    const std::size_t step = ev.peak_step(m);
    const auto slower = static_cast<MemoryIndex>(m + 1);
    std::size_t best = sim.num_tensors();
    double best_cost = std::numeric_limits<double>::infinity();
    for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
      if (ev.memory_of(t) != m || sim.tensor_bytes(t) == 0) continue;
      if (sim.live_first(t) > step || sim.live_last(t) < step) continue;
      const double cost = static_cast<double>(ev.preview_latency(t, slower) - ev.latency_fs()) /
                          static_cast<double>(sim.tensor_bytes(t));
      if (cost < best_cost) {
        best_cost = cost;
        best = t;
      }
    }
    if (best == sim.num_tensors()) break;  // unreachable: a memory that fails holds tensors
    ev.move(best, slower);
    ++result.demotions;
  }
  result.mapping.assign(ev.mapping().begin(), ev.mapping().end());
  return result;
}

}  // namespace memplace
