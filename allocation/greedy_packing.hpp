// Greedy packings: buffers placed one at a time, each in a gap of the address space that stays free
// for its whole life — best fit (the smallest gap it fits, as XLA's memory-space assignment and
// TFLite Micro's planner do) or first fit (the lowest offset) — over several buffer orders. Fast,
// and the reference the exact search is measured against (docs/allocation.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

enum class FitRule { best_fit, first_fit };
inline constexpr FitRule kFitRules[] = {FitRule::best_fit, FitRule::first_fit};

// The orders the greedy packings try, each descending with ties by position in the problem:
// size; area (size x lifetime); lifetime; contention (bytes of the buffers live with it); and
// lower end ascending (the order a program allocates in).
enum class BufferOrder { size, area, lifetime, contention, lower };
inline constexpr BufferOrder kBufferOrders[] = {BufferOrder::size, BufferOrder::area,
                                                BufferOrder::lifetime, BufferOrder::contention,
                                                BufferOrder::lower};

std::string name_of(FitRule rule);
std::string name_of(BufferOrder order);

// The buffers' positions in `order`; `neighbours` are their live_neighbours.
std::vector<int> buffer_order(std::span<const Buffer> buffers, BufferOrder order,
                              const std::vector<std::vector<int>>& neighbours);

// The offset `rule` picks for `size` bytes among the gaps below `limit` that `taken` leaves free
// (the [begin, end) ranges of the buffers live with it, sorted by begin), aligned to `alignment`;
// -1 if none is wide enough. Best fit takes the narrowest gap (ties: the lowest), first fit the
// lowest; the gap above the last range counts as wide as `limit` allows.
std::int64_t fit_offset(std::span<const std::pair<std::int64_t, std::int64_t>> taken,
                        std::int64_t size, FitRule rule, std::int64_t alignment,
                        std::int64_t limit);

// Offsets for the buffers, placed in `order` by `rule`, ignoring the capacity (the packing's height
// says whether it fits); offsets are multiples of `alignment`.
std::vector<std::int64_t> greedy_offsets(std::span<const Buffer> buffers,
                                         std::span<const int> order, FitRule rule,
                                         std::int64_t alignment);
// The same with the buffers' live_neighbours already known.
std::vector<std::int64_t> greedy_offsets(std::span<const Buffer> buffers,
                                         std::span<const int> order, FitRule rule,
                                         std::int64_t alignment,
                                         const std::vector<std::vector<int>>& neighbours);

struct GreedyPacking {
  std::vector<std::int64_t> offsets;
  std::int64_t height = 0;  // packing_height of the offsets
  std::string method;       // e.g. "best fit by size"
};

// The lowest packing over `rules` x every order (ties: the first in that order) among those
// finished by `deadline`; none if none did. A packing takes O(buffers x live neighbours): seconds
// for tens of thousands of buffers with a thousand live at once, so a time limit must count it.
std::optional<GreedyPacking> best_greedy_packing(
    const Problem& problem, std::span<const FitRule> rules = kFitRules,
    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace memplace::allocation
