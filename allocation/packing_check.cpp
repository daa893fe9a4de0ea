#include "allocation/packing_check.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace memplace::allocation {

std::vector<std::string> packing_faults(const Problem& problem,
                                        std::span<const std::int64_t> offsets, std::size_t limit) {
  const std::vector<Buffer>& buffers = problem.buffers;
  if (offsets.size() != buffers.size())
    throw std::invalid_argument("packing_faults: " + std::to_string(offsets.size()) +
                                " offsets for " + std::to_string(buffers.size()) + " buffers");
  std::vector<std::string> faults;
  std::size_t more = 0;
  const auto fault = [&](std::string text) {
    if (faults.size() < limit)
      faults.push_back(std::move(text));
    else
      ++more;
  };
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    const std::int64_t o = offsets[i];
    if (o < 0) fault("buffer " + b.id + ": offset " + std::to_string(o) + " is negative");
    if (o % problem.alignment != 0)
      fault("buffer " + b.id + ": offset " + std::to_string(o) + " is not a multiple of " +
            std::to_string(problem.alignment));
    if (o > problem.capacity - b.size)
      fault("buffer " + b.id + ": [" + std::to_string(o) + ", " + std::to_string(o + b.size) +
            ") ends above the capacity " + std::to_string(problem.capacity));
  }
  // A sweep in the order of lower ends: each buffer against those still live when it starts.
  std::vector<std::size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return buffers[a].lower < buffers[b].lower;
  });
  std::vector<std::size_t> live;
  for (const std::size_t i : order) {
    const Buffer& b = buffers[i];
    std::erase_if(live, [&](std::size_t j) { return buffers[j].upper <= b.lower; });
    for (const std::size_t j : live) {
      const Buffer& c = buffers[j];
      if (b.size == 0 || c.size == 0) continue;
      if (offsets[i] < offsets[j] + c.size && offsets[j] < offsets[i] + b.size)
        fault("buffers " + c.id + " and " + b.id + " are live together in steps [" +
              std::to_string(b.lower) + ", " + std::to_string(std::min(b.upper, c.upper)) +
              ") and share the bytes [" + std::to_string(std::max(offsets[i], offsets[j])) + ", " +
              std::to_string(std::min(offsets[i] + b.size, offsets[j] + c.size)) + ")");
    }
    live.push_back(i);
  }
  if (more > 0) faults.push_back("... and " + std::to_string(more) + " more");
  return faults;
}

std::int64_t packing_height(std::span<const Buffer> buffers,
                            std::span<const std::int64_t> offsets) {
  std::int64_t height = 0;
  for (std::size_t i = 0; i < buffers.size(); ++i)
    height = std::max(height, offsets[i] + buffers[i].size);
  return height;
}

}  // namespace memplace::allocation
