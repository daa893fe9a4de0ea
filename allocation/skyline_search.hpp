// The skyline search: an exact allocation search that fills the lowest free point first.
//
// The placed buffers form a skyline: per time section, the floor above which every unplaced buffer
// of the section must go. At every node the search takes, among the sections at the lowest floor,
// the one with the fewest branches (ties: the earliest), and branches on which unplaced buffer
// sits right at that floor — any buffer of the section whose other sections are at the same floor
// — and, last, on none: the floor then rises to the lowest offset a buffer could still take there
// (a buffer's own lowest offset, or the top of the smallest unplaced buffer stacked on the floor).
// Every packing is found: in a packing that extends the placed buffers, the lowest buffer over any
// section at the lowest floor either sits at the floor or rests on something above it. Where the
// problem has no slack (every section's bytes fill it exactly), the rising branch is cut at once,
// so the search only ever fills holes — which is what makes it fast on zero-slack problems, where
// the offset-ordered search (exact_search.hpp) thrashes (docs/allocation.md, "How it solves").
// When every branch of a decision fails, it jumps back to the latest decision the failures
// depended on (conflict-directed backjumping), not to the one before.
#pragma once

#include <memory>
#include <span>

#include "allocation/exact_search.hpp"
#include "allocation/feasible_offsets.hpp"

namespace memplace::allocation {

// As exact_search: deterministic, complete, the same outcome on every machine under a placement
// limit; `rank_order` orders the buffers that can sit at the same floor.
// With a nonzero `shuffle`, each buffer's rank moves by a random amount (up to an eighth of the
// buffers, from that seed): another complete search with other first choices, for restarts.
// `feasible`, when given (feasible_offsets(problem), one set per buffer of the problem), rules
// out the floors a buffer can never rest at.
ExactSearchResult skyline_search(const Problem& problem, const SearchLimits& limits,
                                 RankOrder rank_order = RankOrder::size,
                                 const SearchProgressCallback& progress = {},
                                 std::uint64_t shuffle = 0,
                                 std::span<const OffsetSet> feasible = {});

// The same search, run in parts: each run() searches on from where the last one stopped at its
// placement limit, as if the search had never stopped — a rerun with a bigger budget would walk
// the first branches again. Once it has packed or proven that nothing packs, run() gives that
// again. The problem and `feasible` must outlive it. A stop at the time limit resumes too; the
// placement it stopped at is counted by that call and again by the next, which makes it.
class SkylineSearch {
 public:
  SkylineSearch(const Problem& problem, RankOrder rank_order = RankOrder::size,
                std::uint64_t shuffle = 0, std::span<const OffsetSet> feasible = {});
  ~SkylineSearch();
  SkylineSearch(SkylineSearch&&) noexcept;
  SkylineSearch& operator=(SkylineSearch&&) noexcept;

  // `limits` and the result's counts are this call's.
  ExactSearchResult run(const SearchLimits& limits, const SearchProgressCallback& progress = {});

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace memplace::allocation
