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

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "allocation/phantom_holes.hpp"
#include "allocation/search_interface.hpp"

namespace memplace::allocation {

struct GuidedGuess {
  // Every cut decided; false when `limits` ran out first, when there is no spare, or when a
  // repaired sweep gave up (more cuts unmended than its window allows).
  bool complete = false;
  std::vector<Buffer> holes;
  std::uint64_t placements = 0;  // spent on the windows' searches
  int repairs = 0;   // cuts whose window a repair or the last resort made pack (repaired_holes)
  int unmended = 0;  // cuts where no option's window packs and no repair mended it (idem)
  // Cuts where none of the options tried packs though the cut may offer more (as many as
  // `window.options` offered): a sweep allowed more options may choose otherwise there
  // (guided_holes; with none, it makes the same guess).
  int short_of_options = 0;
  // The options taken at the cuts before the first cut short of options (guided_holes): a sweep
  // allowed more options takes the same there, so it may start after them.
  std::vector<int> decided_before_short;
};

// How far a window reaches on each side of its cut, the placements its search may take, the
// options each cut offers (its rule's best first), and how many cuts a repaired sweep may leave
// unmended before it gives up.
struct GuideWindow {
  int sections = 0;
  std::uint64_t placements = 0;
  std::size_t options = HoleDecompositions::kMaxOptions;
  int most_unmended = std::numeric_limits<int>::max();

  bool operator==(const GuideWindow&) const = default;
};
// Narrow windows are cheap (a 450-buffer sweep takes a second or two) and decide most cuts; at
// some cuts a wrong option's narrow window packs too, where a window reaching 60 sections each
// way does not — at some ten times the cost (docs/allocation.md, "Guided guesses").
inline constexpr GuideWindow kNarrowGuide{20, 5'000};
inline constexpr GuideWindow kWideGuide{60, 20'000};

// The guided guess under `rule` with windows of `window`; deterministic under a placement limit
// (`limits` bound the windows' searches together).
// `progress`, if given, is called after each section: `deepest` of `buffers` are then the
// sections passed of all, `nodes` the placements spent. `decided`, if given, are the options
// taken at the first cuts (another sweep's `decided_before_short`): the sweep starts after them
// (std::invalid_argument if there are more than the cuts).
GuidedGuess guided_holes(const Problem& problem, HoleRule rule, GuideWindow window,
                         const SearchLimits& limits, const SearchProgressCallback& progress = {},
                         std::span<const int> decided = {});

// A guided guess whose windows look back only, repaired where a cut has no option that packs.
//
// The windows above reach past their cut, into cuts not yet decided, with the rule's first option
// at each: where a later cut in the window needs another option, the right option's window fails
// and a wrong one may pack, so the sweep keeps the wrong one (on spare-bytes seed 349 of 450
// buffers, at sections 38 and 55). Here cut s's window reaches back `window.sections` sections and
// forward only to the next cut that offers a choice, so every hole in it is fixed by the choices
// made. A wrong choice then shows further on, as a cut where no option's window packs. The sweep
// then tries each other option of one earlier cut in that window, nearest cut first, deciding the
// cuts between again, until the failed cut's window packs. The sweep and its repairs try each
// cut's first kMaxOptions options; a cut that no repair mends tries its later options (up to
// `window.options`) as a last resort, and else keeps its rule's option — until more than
// `window.most_unmended` cuts are kept so, when the sweep gives up (an incomplete guess). Limits,
// progress and determinism as guided_holes'.
GuidedGuess repaired_holes(const Problem& problem, HoleRule rule, GuideWindow window,
                           const SearchLimits& limits, const SearchProgressCallback& progress = {});
// A look-back window sees a wrong choice only once the sections it conflicts with are in it: 60
// sections back packed more of the dev misses than 40. Some misses need an option past the sixth
// at a cut (option 16, the rule's first being 0, on 450 seed 1098): up to 24 (docs/allocation.md,
// "Repaired guided guesses"). A sweep that leaves a third cut unmended gives up: on the dev
// problems every right guess left at most two, and the wrong sweeps that left more took most of
// their time on them (docs/allocation.md, "Sweeps give up").
inline constexpr std::size_t kMostOptions = 24;
inline constexpr GuideWindow kLookBackGuide{60, 5'000, kMostOptions, 2};
// Some wrong choices conflict only with sections further back: windows reaching 100 sections back
// made a right guess for 7 of the 14 dev misses of the 60-section sweeps (docs/allocation.md,
// "Deep repaired guesses"), at some five times the cost (0.3-46 s on 450 buffers).
inline constexpr GuideWindow kDeepLookBackGuide{100, 5'000, kMostOptions, 2};
// A narrow sweep that ran short of options, made again with up to kMostOptions per cut
// (docs/allocation.md, "Widened guided guesses").
inline constexpr GuideWindow kWidenedGuide{kNarrowGuide.sections, kNarrowGuide.placements,
                                           kMostOptions};

// The problem with every buffer cut to the time window [lower, upper); those outside it dropped.
Problem time_window(const Problem& problem, std::int64_t lower, std::int64_t upper);

}  // namespace memplace::allocation
