#include "env/malloc/occupancy_grid.hpp"

#include <algorithm>
#include <stdexcept>

namespace memplace {
namespace {

// The bins [lo, hi) that the interval [begin, end) of an axis of `length` covers out of `bins`,
// and the covered share of each: calls share(bin, fraction of the bin covered).
template <typename Share>
void cover(double begin, double end, double length, std::size_t bins, Share&& share) {
  const double width = length / static_cast<double>(bins);
  const auto lo = static_cast<std::size_t>(begin / width);
  for (std::size_t b = lo; b < bins; ++b) {
    const double bin_begin = static_cast<double>(b) * width;
    if (bin_begin >= end) break;
    const double covered = std::min(end, bin_begin + width) - std::max(begin, bin_begin);
    if (covered > 0) share(b, covered / width);
  }
}

}  // namespace

OccupancyGrid::OccupancyGrid(std::size_t steps, std::span<const std::int64_t> capacities)
    : steps_(steps), memories_(capacities.size()) {
  if (memories_ > kMaxMemories) throw std::invalid_argument("OccupancyGrid: too many memories");
  std::copy(capacities.begin(), capacities.end(), capacities_.begin());
}

void OccupancyGrid::add(std::span<float> cells, std::size_t k, std::int64_t offset,
                        std::int64_t end, std::size_t first, std::size_t last) const {
  float* grid = &cells[k * kTimeBins * kAddressBins];
  const auto capacity = static_cast<double>(capacities_[k]);
  cover(static_cast<double>(first), static_cast<double>(last + 1), static_cast<double>(steps_),
        kTimeBins, [&](std::size_t row, double time_share) {
          cover(static_cast<double>(offset), static_cast<double>(end), capacity, kAddressBins,
                [&](std::size_t column, double address_share) {
                  float& cell = grid[row * kAddressBins + column];
                  // Allocations never overlap, so the sum stays <= 1 up to rounding.
                  cell = std::min(1.0f, cell + static_cast<float>(time_share * address_share));
                });
        });
}

}  // namespace memplace
