// `memplace pack`'s solver: the greedy portfolio first (milliseconds), then the exact search for
// what is left of the time limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "allocation/exact_search.hpp"
#include "allocation/problem.hpp"

namespace memplace::allocation {

struct PackResult {
  SearchOutcome outcome = SearchOutcome::limit;
  std::vector<std::int64_t> offsets;  // when packed
  std::string method;     // what decided it: "best fit by size", "exact search", "peak live bytes"
  std::int64_t peak = 0;  // peak live bytes: the capacity no packing can go below
  std::optional<std::int64_t> greedy_height;  // the best greedy packing's; none within the limit
  std::uint64_t nodes = 0;                    // the exact search's placements (0 if it did not run)
  double seconds = 0;                         // wall time of the whole
};

// Which rank orders the exact searches' portfolio runs. Cost model v2 keeps the portfolio its
// verdicts were measured with, so that a better `memplace pack` changes none of its tables
// (docs/allocation.md); `memplace pack` and `evaluate --allocation` take the latest.
enum class Portfolio { latest, cost_model_v2 };

// Packs `problem` (check_problem first) within `limits` (the time limit counts the greedy packings
// too); with `greedy_only`, never runs the exact search (then a problem the greedy packings do not
// fit ends at `limit`).
// `progress` is the exact search's.
PackResult pack(const Problem& problem, const SearchLimits& limits, bool greedy_only = false,
                const SearchProgressCallback& progress = {},
                Portfolio portfolio = Portfolio::latest);

}  // namespace memplace::allocation
