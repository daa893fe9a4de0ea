#include "env/model/rectify.hpp"

#include <limits>

#include "env/model/incremental.hpp"

namespace memplace {

Rectified rectify(const Simulator& sim, std::span<const MemoryIndex> mapping) {
  IncrementalEvaluator ev(sim, mapping);
  Rectified result;
  while (!ev.valid()) {
    std::size_t m = 0;
    while (ev.overflow_bytes(m) == 0)
      ++m;
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
    if (best == sim.num_tensors()) break;  // unreachable: an overflow implies an occupant
    ev.move(best, slower);
    ++result.demotions;
  }
  result.valid = ev.valid();
  result.mapping.assign(ev.mapping().begin(), ev.mapping().end());
  return result;
}

}  // namespace memplace
