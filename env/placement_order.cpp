#include "env/placement_order.hpp"

#include <algorithm>
#include <cmath>

#include "env/model/incremental.hpp"

namespace memplace {

std::vector<std::size_t> placement_order(const Simulator& sim, PlacementOrder order) {
  std::vector<std::size_t> tensors;
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    if (sim.tensor_bytes(t) > 0) tensors.push_back(t);
  }
  if (order == PlacementOrder::msa) {
    const IncrementalEvaluator all_slowest(sim);
    std::vector<double> key(sim.num_tensors(), 0.0);
    for (std::size_t t : tensors) {
      const auto benefit =
          static_cast<double>(all_slowest.latency_fs() - all_slowest.preview_latency(t, 0));
      key[t] = benefit / std::sqrt(static_cast<double>(sim.tensor_bytes(t)));
    }
    std::stable_sort(tensors.begin(), tensors.end(),
                     [&](std::size_t a, std::size_t b) { return key[a] > key[b]; });
  }
  return tensors;
}

}  // namespace memplace
