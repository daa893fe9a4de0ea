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

#include <vector>

#include "allocation/problem.hpp"
#include "allocation/search_interface.hpp"

namespace memplace::allocation {

// Searches for a packing of `problem` within `limits`, calling `progress` (if set) about once a
// second. Deterministic: the same problem gives the same packing whatever the machine, unless the
// time limit cuts it short.
ExactSearchResult exact_search(const Problem& problem, const SearchLimits& limits,
                               RankOrder rank_order = RankOrder::size,
                               const SearchProgressCallback& progress = {});

}  // namespace memplace::allocation
