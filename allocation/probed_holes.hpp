// Guesses of the phantom holes one option away from a rule's first guess, ranked by a short probe.
//
// A rule's first guess can be right at every ambiguous cut but one (spare-bytes seeds 245 and
// 257 of 450 buffers: one other option at one cut packs in 1-5 k placements, where the first
// guess does not pack in a million). Such a neighbour hides among a hundred or more, and the
// rules' own order of deviations (phantom_holes.hpp) reaches the middle cuts only after minutes;
// a guided sweep's windows (guided_holes.hpp) often pack the rule's option there too. The
// search itself tells them apart sooner: given a thousand placements, it gets further into the
// right neighbour — more buffers placed at once — than into the first guess (on seed 257: 305 of
// 473 against 151, the next best neighbour 217). So every neighbour is probed with a small
// budget, and those the search gets strictly deeper into than the first guess are kept, deepest
// first. A probe proves nothing: it only orders guesses, which are then searched like any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "allocation/phantom_holes.hpp"
#include "allocation/search_interface.hpp"
#include "allocation/seen_holes.hpp"

namespace memplace::allocation {

struct ProbedNeighbours {
  bool complete = false;  // every neighbour probed; false when `limits` ran out first
  // The neighbours' holes, deepest first (ties in the rule's order of cuts and options).
  std::vector<std::vector<Buffer>> holes;
  std::uint64_t placements = 0;  // spent on the probes
};

// Placements per probe: enough for the search to pass the first guess's sticking point on seed
// 257 above. The probes of a 450-buffer problem's two rules take some 300,000 placements, 5 s.
inline constexpr std::uint64_t kProbePlacements = 1024;

// The one-option deviations of `rule`'s first guess that the skyline search gets deeper into
// than the guess itself within `probe_placements` (a neighbour its probe packs counts as deepest),
// at most `count`; deterministic under a placement limit (`limits` bound the probes together).
// A neighbour whose holes `probed` holds (a rule probed before made it too) is not probed again.
// `progress`, if given, is called after each probe: `deepest` of `buffers` are then the
// neighbours passed of all, `nodes` the placements spent.
ProbedNeighbours probed_neighbours(const Problem& problem, HoleRule rule, std::size_t count,
                                   std::uint64_t probe_placements, const SearchLimits& limits,
                                   SeenHoles& probed, const SearchProgressCallback& progress = {});

}  // namespace memplace::allocation
