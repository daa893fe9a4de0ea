// The exact allocation search: branch and bound over canonical packings, after MiniMalloc
// (Moffitt, ASPLOS 2023; written from the paper). A packing is canonical when every buffer sits on
// the floor or on a buffer live with it (no buffer could drop lower); every packing can be made
// canonical by dropping its buffers in order of offset, so searching canonical packings alone is
// complete. The search places buffers in order of offset, each at the lowest offset the buffers
// under it allow, and prunes with two facts (docs/allocation.md):
//  - in every time section, the bytes still to place must fit between the section's floor (the
//    top of what is placed there) and the capacity;
//  - the next buffer placed must be the lowest unplaced one, or one live with it and with every
//    unplaced buffer that would otherwise be left below it (each placement order is tried once).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "env/allocation/problem.hpp"

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
ExactSearchResult exact_search(const Problem& problem, const SearchLimits& limits,
                               const SearchProgressCallback& progress = {});

}  // namespace memplace::allocation
