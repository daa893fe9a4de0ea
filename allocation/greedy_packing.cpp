#include "allocation/greedy_packing.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "allocation/gaps.hpp"
#include "allocation/packing_check.hpp"

namespace memplace::allocation {

std::string name_of(FitRule rule) {
  return rule == FitRule::best_fit ? "best fit" : "first fit";
}

std::string name_of(BufferOrder order) {
  switch (order) {
    case BufferOrder::size:
      return "size";
    case BufferOrder::area:
      return "area";
    case BufferOrder::lifetime:
      return "lifetime";
    case BufferOrder::contention:
      return "contention";
    case BufferOrder::lower:
      return "lower end";
  }
  return "?";
}

std::vector<int> buffer_order(std::span<const Buffer> buffers, BufferOrder order,
                              const std::vector<std::vector<int>>& neighbours) {
  const std::size_t n = buffers.size();
  // The key to sort by, descending (the lower end is negated: ascending).
  std::vector<double> key(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Buffer& b = buffers[i];
    const auto life = static_cast<double>(b.upper - b.lower);
    switch (order) {
      case BufferOrder::size:
        key[i] = static_cast<double>(b.size);
        break;
      case BufferOrder::area:
        key[i] = static_cast<double>(b.size) * life;
        break;
      case BufferOrder::lifetime:
        key[i] = life;
        break;
      case BufferOrder::lower:
        key[i] = -static_cast<double>(b.lower);
        break;
      case BufferOrder::contention:
        key[i] = static_cast<double>(b.size);
        for (const int j : neighbours[i])
          key[i] += static_cast<double>(buffers[j].size);
        break;
    }
  }
  std::vector<int> positions(n);
  std::iota(positions.begin(), positions.end(), 0);
  std::stable_sort(positions.begin(), positions.end(),
                   [&](int a, int b) { return key[a] > key[b]; });
  return positions;
}

std::int64_t fit_offset(std::span<const std::pair<std::int64_t, std::int64_t>> taken,
                        std::int64_t size, FitRule rule, std::int64_t alignment,
                        std::int64_t limit) {
  std::int64_t chosen = -1;
  std::int64_t chosen_gap = 0;
  for_each_gap(taken, alignment, limit, [&](std::int64_t at, std::int64_t end) {
    const std::int64_t gap = end - at;
    if (gap < size) return false;
    if (chosen < 0 || (rule == FitRule::best_fit && gap < chosen_gap))
      chosen = at, chosen_gap = gap;
    return rule == FitRule::first_fit;
  });
  return chosen;
}

namespace {

using Deadline = std::optional<std::chrono::steady_clock::time_point>;

bool passed(const Deadline& deadline) {
  return deadline && std::chrono::steady_clock::now() > *deadline;
}

// greedy_offsets, or none if `deadline` passes first (looked at every 256 buffers).
std::optional<std::vector<std::int64_t>> offsets_by(std::span<const Buffer> buffers,
                                                    std::span<const int> order, FitRule rule,
                                                    std::int64_t alignment,
                                                    const std::vector<std::vector<int>>& neighbours,
                                                    const Deadline& deadline) {
  std::vector<std::int64_t> offsets(buffers.size(), 0);
  std::vector<char> placed(buffers.size(), 0);
  std::vector<std::pair<std::int64_t, std::int64_t>> taken;  // [begin, end) of live neighbours
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k % 256 == 255 && passed(deadline)) return std::nullopt;
    const int i = order[k];
    const Buffer& b = buffers[i];
    taken.clear();
    for (const int j : neighbours[i])
      if (placed[j] && buffers[j].size > 0)
        taken.emplace_back(offsets[j], offsets[j] + buffers[j].size);
    std::sort(taken.begin(), taken.end());
    offsets[i] =
        fit_offset(taken, b.size, rule, alignment, std::numeric_limits<std::int64_t>::max());
    placed[i] = 1;
  }
  return offsets;
}

}  // namespace

std::vector<std::int64_t> greedy_offsets(std::span<const Buffer> buffers,
                                         std::span<const int> order, FitRule rule,
                                         std::int64_t alignment) {
  return greedy_offsets(buffers, order, rule, alignment, live_neighbours(buffers));
}

std::vector<std::int64_t> greedy_offsets(std::span<const Buffer> buffers,
                                         std::span<const int> order, FitRule rule,
                                         std::int64_t alignment,
                                         const std::vector<std::vector<int>>& neighbours) {
  return *offsets_by(buffers, order, rule, alignment, neighbours, std::nullopt);
}

std::optional<GreedyPacking> best_greedy_packing(const Problem& problem,
                                                 std::span<const FitRule> rules,
                                                 Deadline deadline) {
  const std::vector<std::vector<int>> neighbours = live_neighbours(problem.buffers);
  std::optional<GreedyPacking> best;
  for (const BufferOrder order : kBufferOrders) {
    const std::vector<int> positions = buffer_order(problem.buffers, order, neighbours);
    for (const FitRule rule : rules) {
      std::optional<std::vector<std::int64_t>> offsets =
          offsets_by(problem.buffers, positions, rule, problem.alignment, neighbours, deadline);
      if (!offsets) return best;
      const std::int64_t height = packing_height(problem.buffers, *offsets);
      if (!best || height < best->height)
        best = GreedyPacking{std::move(*offsets), height, name_of(rule) + " by " + name_of(order)};
    }
  }
  return best;
}

}  // namespace memplace::allocation
