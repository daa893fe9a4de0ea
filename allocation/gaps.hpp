// The free gaps of an address space, and the offsets the rules of a greedy allocator (or a player
// of the malloc env) would pick among them.
//
// `taken` lists the [begin, end) address ranges of the buffers live with the one being placed,
// sorted by begin (they may overlap one another: buffers that are not live together can share
// bytes). The gaps are what lies between them below `limit`; a gap's usable part starts at its
// first aligned byte.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>

#include "allocation/problem.hpp"

namespace memplace::allocation {

using Range = std::pair<std::int64_t, std::int64_t>;

// Calls gap(at, end) for every gap in address order, with `at` its first aligned byte (a gap may
// be empty or negative in width once aligned); stops early when gap returns true.
template <typename Gap>
void for_each_gap(std::span<const Range> taken, std::int64_t alignment, std::int64_t limit,
                  Gap&& gap) {
  std::int64_t start = 0;  // the lowest byte not yet known to be taken
  for (const auto& [begin, end] : taken) {
    if (gap(align_up(start, alignment), begin)) return;
    start = std::max(start, end);
  }
  gap(align_up(start, alignment), limit);
}

// The malloc env's candidate placements in one memory (docs/envs/malloc.md).
enum class GapRule : std::uint8_t {
  lowest,    // the lowest offset that fits (first fit)
  best_fit,  // the narrowest gap it fits, at its bottom (ties: the lowest)
  widest,    // the widest gap, at its bottom (ties: the lowest)
  highest,   // the highest offset that fits: the top of the highest gap it fits
};
inline constexpr std::array<GapRule, 4> kGapRules = {GapRule::lowest, GapRule::best_fit,
                                                     GapRule::widest, GapRule::highest};
const char* name_of(GapRule rule);

// The offset each rule picks for `size` bytes (aligned to `alignment`), or -1 where no gap below
// `limit` is wide enough; indexed like kGapRules.
std::array<std::int64_t, kGapRules.size()> gap_candidates(std::span<const Range> taken,
                                                          std::int64_t size, std::int64_t alignment,
                                                          std::int64_t limit);

}  // namespace memplace::allocation
