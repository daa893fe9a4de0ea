#include "allocation/gaps.hpp"

namespace memplace::allocation {

const char* name_of(GapRule rule) {
  switch (rule) {
    case GapRule::lowest:
      return "lowest";
    case GapRule::best_fit:
      return "best-fit";
    case GapRule::widest:
      return "widest";
    case GapRule::highest:
      return "highest";
  }
  return "?";
}

std::array<std::int64_t, kGapRules.size()> gap_candidates(std::span<const Range> taken,
                                                          std::int64_t size, std::int64_t alignment,
                                                          std::int64_t limit) {
  std::array<std::int64_t, kGapRules.size()> offset;
  offset.fill(-1);
  std::int64_t best_width = 0, widest_width = 0;
  for_each_gap(taken, alignment, limit, [&](std::int64_t at, std::int64_t end) {
    const std::int64_t width = end - at;
    if (width < size) return false;
    auto& [lowest, best, widest, highest] = offset;
    if (lowest < 0) lowest = at;
    if (best < 0 || width < best_width) best = at, best_width = width;
    if (widest < 0 || width > widest_width) widest = at, widest_width = width;
    highest = align_down(end - size, alignment);  // at is aligned and at <= end - size
    return false;
  });
  return offset;
}

}  // namespace memplace::allocation
