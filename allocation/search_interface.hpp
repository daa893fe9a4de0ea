// What every allocation search (the exact search, the skyline search) takes besides its problem —
// its limits, a progress callback and the rank order of its one heuristic choice — and what it
// gives back. In a file of their own so that the searches and what they share
// (search_common.hpp) include them, not each other.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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
  int deepest = 0;  // the most buffers placed at once (deterministic, like `nodes`)
};

// Where a running search is, for a progress display.
struct SearchProgress {
  std::uint64_t nodes = 0;
  int deepest = 0;  // the most buffers placed at once so far
  int buffers = 0;  // of this many (those with bytes)
  double seconds = 0;
  // Empty while the problem itself is searched; otherwise what runs and how far it is, in words
  // (a guess of `memplace pack`'s phantom holes, or a guided sweep: packer.cpp), in place of
  // `deepest` of `buffers`.
  std::string stage;
};
using SearchProgressCallback = std::function<void(const SearchProgress&)>;

// When the search gives up. A time limit depends on the machine; a placement limit does not, so
// the same problem and limit give the same outcome everywhere (what an environment needs).
struct SearchLimits {
  double seconds = 60;
  std::uint64_t placements = 0;  // 0: no limit
};

// Which of the buffers that could take the same offset at the same step goes first (their rank):
// the search's one heuristic choice. Every order gives a complete search; which is fast differs
// from problem to problem (docs/allocation.md). `busiest_section` ranks by the bytes live in the
// buffer's busiest step, then lifetime, then area (MiniMalloc's "TWA"); the offset-ordered search
// ranks again by the bytes still to place whenever it starts a run of its own (below).
enum class RankOrder { size, lifetime, area, short_lifetime, early_end, late_end, busiest_section };
// `memplace pack`'s orders, in the order its portfolio tries them.
inline constexpr RankOrder kRankOrders[] = {
    RankOrder::busiest_section, RankOrder::size,      RankOrder::lifetime, RankOrder::area,
    RankOrder::short_lifetime,  RankOrder::early_end, RankOrder::late_end};
// Cost model v2's allocator keeps the orders its verdicts were measured with.
inline constexpr RankOrder kCostModelV2RankOrders[] = {
    RankOrder::size,           RankOrder::lifetime,  RankOrder::area,
    RankOrder::short_lifetime, RankOrder::early_end, RankOrder::late_end};
std::string name_of(RankOrder order);

}  // namespace memplace::allocation
