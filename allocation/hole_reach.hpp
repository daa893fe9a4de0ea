// How far a hole rule's options reach a known free space — a development aid for the guesses of
// phantom holes (phantom_holes.hpp): where a problem is not packed, is a right guess missing from
// the options, or only far from the rule's first choices? Generated problems with spare bytes know
// one free space, the buffers removed from their cut (zero_slack_generator.hpp);
// `memplace_hole_walk` (allocation/tools/) prints the answer for them (docs/allocation.md, "What
// the misses lack").
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "allocation/phantom_holes.hpp"
#include "allocation/problem.hpp"

namespace memplace::allocation {

struct HoleReach {
  // Per section of the decomposition (its cut starts the section): the option taken (0: the
  // rule's first) and the options offered there (1 where the spare bytes keep the open holes;
  // past `stuck_at`, 0 and 1: not walked).
  std::vector<int> choices;
  std::vector<int> offered;
  int deviations = 0;  // cuts where an option other than the first was taken
  int stuck_at = -1;   // the first section that no option reaches; -1 when the walk reached all
};

// The bytes of the rectangles (holes, or a free space) live at `step`, by the step each opened at.
std::map<std::int64_t, std::int64_t> bytes_by_opening(std::span<const Buffer> rectangles,
                                                      std::int64_t step);

// Walks the decomposition's cuts in time order, taking at each cut that offers options the first
// under which, in the section it starts, the holes opened at each step hold as many bytes as the
// rectangles of `free_space` opened at that step and live there (how holes that opened together
// lie side by side is not asked: a guess need only fit some packing). `free_space` must fill each
// section's spare bytes, as the removed buffers of a spare-bytes problem do.
HoleReach reach_free_space(const HoleDecompositions& decompositions,
                           std::span<const Buffer> free_space);

}  // namespace memplace::allocation
