#include "allocation/problem.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "base/errors.hpp"

namespace memplace::allocation {

Problem time_reversed(const Problem& problem) {
  Problem reversed = problem;
  std::int64_t end = 0;
  for (const Buffer& b : problem.buffers)
    end = std::max(end, b.upper);
  for (Buffer& b : reversed.buffers) {
    const std::int64_t lower = b.lower;
    b.lower = end - b.upper;
    b.upper = end - lower;
  }
  return reversed;
}

std::int64_t peak_live_bytes(std::span<const Buffer> buffers) {
  // +size at lower, -size at upper; at equal steps the ends go first (half-open lifetimes).
  std::vector<std::pair<std::int64_t, std::int64_t>> events;
  events.reserve(2 * buffers.size());
  for (const Buffer& b : buffers) {
    events.emplace_back(b.lower, b.size);
    events.emplace_back(b.upper, -b.size);
  }
  std::sort(events.begin(), events.end());
  std::int64_t live = 0;
  std::int64_t peak = 0;
  for (const auto& [step, delta] : events) {
    live += delta;
    peak = std::max(peak, live);
  }
  return peak;
}

std::uint64_t live_pairs(std::span<const Buffer> buffers) {
  // A buffer meets every one that started before it (in the order of lower ends) and has not
  // ended by its start; every one that has ended by then started before it.
  std::vector<std::int64_t> lowers, uppers;
  for (const Buffer& b : buffers)
    lowers.push_back(b.lower), uppers.push_back(b.upper);
  std::sort(lowers.begin(), lowers.end());
  std::sort(uppers.begin(), uppers.end());
  std::uint64_t pairs = 0;
  for (std::size_t rank = 0; rank < lowers.size(); ++rank) {
    const auto ended =
        std::upper_bound(uppers.begin(), uppers.end(), lowers[rank]) - uppers.begin();
    pairs += rank - static_cast<std::size_t>(ended);
  }
  return pairs;
}

std::vector<std::vector<int>> live_neighbours(std::span<const Buffer> buffers) {
  if (const std::uint64_t pairs = live_pairs(buffers); pairs > kMaxLivePairs) {
    throw InputError(std::to_string(buffers.size()) + " buffers, " + std::to_string(pairs) +
                     " pairs of them live together: beyond the " + std::to_string(kMaxLivePairs) +
                     " pairs the solver lists (8 bytes each); split the problem in time");
  }
  std::vector<int> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return buffers[a].lower < buffers[b].lower; });
  std::vector<std::vector<int>> neighbours(buffers.size());
  std::vector<int> live;  // started before the current buffer; pruned as they end
  for (const int i : order) {
    std::erase_if(live, [&](int j) { return buffers[j].upper <= buffers[i].lower; });
    for (const int j : live) {
      neighbours[i].push_back(j);
      neighbours[j].push_back(i);
    }
    live.push_back(i);
  }
  for (std::vector<int>& list : neighbours)
    std::sort(list.begin(), list.end());
  return neighbours;
}

Sections time_sections(std::span<const Buffer> buffers) {
  Sections s;
  for (const Buffer& b : buffers) {
    s.cuts.push_back(b.lower);
    s.cuts.push_back(b.upper);
  }
  std::sort(s.cuts.begin(), s.cuts.end());
  s.cuts.erase(std::unique(s.cuts.begin(), s.cuts.end()), s.cuts.end());
  const auto index = [&](std::int64_t step) {
    return static_cast<int>(std::lower_bound(s.cuts.begin(), s.cuts.end(), step) - s.cuts.begin());
  };
  for (const Buffer& b : buffers) {
    s.first.push_back(index(b.lower));
    s.last.push_back(index(b.upper));
  }
  return s;
}

void check_problem(const Problem& problem) {
  const auto fail = [](const std::string& what) { throw InputError(what); };
  if (problem.capacity < 0 || problem.capacity > kMaxValue)
    fail("capacity: must be in [0, 10^15], got " + std::to_string(problem.capacity));
  if (problem.alignment < 1 || problem.alignment > kMaxValue)
    fail("alignment: must be in [1, 10^15], got " + std::to_string(problem.alignment));
  std::unordered_set<std::string> ids;
  for (const Buffer& b : problem.buffers) {
    const std::string where = "buffer " + b.id + ": ";
    if (b.lower < 0 || b.lower > kMaxValue)
      fail(where + "lower: must be in [0, 10^15], got " + std::to_string(b.lower));
    if (b.upper <= b.lower || b.upper > kMaxValue)
      fail(where + "upper: must be above lower (" + std::to_string(b.lower) +
           ") and at most 10^15, got " + std::to_string(b.upper));
    if (b.size < 0 || b.size > kMaxValue)
      fail(where + "size: must be in [0, 10^15], got " + std::to_string(b.size));
    if (!ids.insert(b.id).second) fail(where + "id: appears twice");
  }
}

}  // namespace memplace::allocation
