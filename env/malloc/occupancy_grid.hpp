// The malloc env's picture of its memories: for each addressed memory, a fixed grid of time
// bins x address bins, each cell the share of its time x address area that allocations cover.
// Fixed-size whatever the workload (a grid, not a list of allocations), so that one network reads
// every instance.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "env/observation.hpp"
#include "model/inputs/hardware.hpp"

namespace memplace {

class OccupancyGrid {
 public:
  static constexpr std::size_t kTimeBins = 32;
  static constexpr std::size_t kAddressBins = 32;

  // `memories` grids over `steps` schedule steps; memory k's addresses are [0, capacities[k]).
  OccupancyGrid(std::size_t steps, std::span<const std::int64_t> capacities);

  GridShape shape() const { return {memories_, kTimeBins, kAddressBins}; }
  // Covers [offset, end) x steps [first, last] of memory k in `cells` (grid_size(shape()) of
  // them; the grid keeps the geometry, its owner the cells).
  void add(std::span<float> cells, std::size_t k, std::int64_t offset, std::int64_t end,
           std::size_t first, std::size_t last) const;

 private:
  std::size_t steps_;
  std::size_t memories_;
  std::array<std::int64_t, kMaxMemories> capacities_{};
};

}  // namespace memplace
