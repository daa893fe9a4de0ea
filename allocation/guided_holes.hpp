// A guess of the phantom holes made cut by cut, each choice checked on the problem around it.
//
// The guesses of phantom_holes.hpp take the same option at every ambiguous cut and deviate at a
// few, in an order that knows nothing of the problem; a 450-buffer problem can need the right
// option at two or three of some forty cuts, beyond a minute of such guesses. Here each cut that
// offers a choice is decided in time order: the problem, with the holes of the options chosen so
// far (and the rule's first option at every later cut), is cut down to the sections around the
// cut, and the first option whose window packs within a small placement budget is kept. A wrong
// option usually leaves a window that packs late or never, the right one a window that packs at
// once (measured on spare-bytes seeds 6-70; docs/allocation.md, "Guided guesses"). A window is a
// relaxation — its buffers are cut to it — so this only orders guesses: the guess is then searched
// like any other.
#pragma once

#include <cstdint>
#include <vector>

#include "allocation/phantom_holes.hpp"
#include "allocation/search_interface.hpp"

namespace memplace::allocation {

struct GuidedGuess {
  bool complete = false;  // every cut decided; false when `limits` ran out first, or no spare
  std::vector<Buffer> holes;
  std::uint64_t placements = 0;  // spent on the windows' searches
};

// How far a window reaches on each side of its cut, and the placements its search may take.
struct GuideWindow {
  int sections = 0;
  std::uint64_t placements = 0;
};
// Narrow windows are cheap (a 450-buffer sweep takes a second or two) and decide most cuts; at
// some cuts a wrong option's narrow window packs too, where a window reaching 60 sections each
// way does not — at some ten times the cost (docs/allocation.md, "Guided guesses").
inline constexpr GuideWindow kNarrowGuide{20, 5'000};
inline constexpr GuideWindow kWideGuide{60, 20'000};

// The guided guess under `rule` with windows of `window`; deterministic under a placement limit
// (`limits` bound the windows' searches together).
// `progress`, if given, is called after each section: `deepest` of `buffers` are then the
// sections passed of all, `nodes` the placements spent.
GuidedGuess guided_holes(const Problem& problem, HoleRule rule, GuideWindow window,
                         const SearchLimits& limits, const SearchProgressCallback& progress = {});

// The problem with every buffer cut to the time window [lower, upper); those outside it dropped.
Problem time_window(const Problem& problem, std::int64_t lower, std::int64_t upper);

}  // namespace memplace::allocation
