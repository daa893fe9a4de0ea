// The exact allocation search: branch and bound over canonical packings, after MiniMalloc
// (Moffitt, ASPLOS 2023; written from the paper and the techniques its solver names). A packing is
// canonical when every buffer sits on the floor or right on a buffer live with it (no buffer could
// drop lower); every packing can be made canonical by dropping its buffers in order of offset, so
// searching canonical packings alone is complete. The search places buffers in the order of
// (offset, lower end, rank), each at the lowest offset the buffers under it allow, and prunes with
// the bytes still to place in every time section, the level every unplaced buffer must end above,
// dominance (no candidate above a hole another buffer fits) and two symmetries; once the unplaced
// buffers fall apart in time, each run is searched on its own (docs/allocation.md, "How it
// solves").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

enum class SearchOutcome {
  packed,      // offsets found
  infeasible,  // the search ended: no packing fits the capacity
  limit,       // stopped at the time or placement limit before either
};

struct ExactSearchResult {
  SearchOutcome outcome = SearchOutcome::limit;
  std::vector<std::int64_t> offsets;  // when packed: one per buffer, in the problem's order
  std::uint64_t nodes = 0;            // placements tried
  double seconds = 0;
};

// Where a running search is, for a progress display.
struct SearchProgress {
  std::uint64_t nodes = 0;
  int deepest = 0;  // the most buffers placed at once so far
  int buffers = 0;  // of this many (those with bytes)
  double seconds = 0;
};
using SearchProgressCallback = std::function<void(const SearchProgress&)>;

// When the search gives up. A time limit depends on the machine; a placement limit does not, so
// the same problem and limit give the same outcome everywhere (what an environment needs).
struct SearchLimits {
  double seconds = 60;
  std::uint64_t placements = 0;  // 0: no limit
};

// Searches for a packing of `problem` within `limits`, calling `progress` (if set) about once a
// second. Deterministic: the same problem gives the same packing whatever the machine, unless the
// time limit cuts it short.
// Which of the buffers that could take the same offset at the same step goes first (their rank):
// the search's one heuristic choice. Every order gives a complete search; which is fast differs
// from problem to problem (docs/allocation.md).
enum class RankOrder { size, lifetime, area, short_lifetime, early_end, late_end };
inline constexpr RankOrder kRankOrders[] = {RankOrder::size,      RankOrder::lifetime,
                                            RankOrder::area,      RankOrder::short_lifetime,
                                            RankOrder::early_end, RankOrder::late_end};
std::string name_of(RankOrder order);

ExactSearchResult exact_search(const Problem& problem, const SearchLimits& limits,
                               RankOrder rank_order = RankOrder::size,
                               const SearchProgressCallback& progress = {});

}  // namespace memplace::allocation
