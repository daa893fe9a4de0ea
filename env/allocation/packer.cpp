#include "env/allocation/packer.hpp"

#include <chrono>

#include "env/allocation/greedy_packing.hpp"

namespace memplace::allocation {

PackResult pack(const Problem& problem, const SearchLimits& limits, bool greedy_only,
                const SearchProgressCallback& progress) {
  check_problem(problem);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  PackResult result;
  result.peak = peak_live_bytes(problem.buffers);
  GreedyPacking greedy = best_greedy_packing(problem);
  result.greedy_height = greedy.height;
  if (result.peak > problem.capacity) {
    result.outcome = SearchOutcome::infeasible;
    result.method = "peak live bytes";
  } else if (greedy.height <= problem.capacity) {
    result.outcome = SearchOutcome::packed;
    result.offsets = std::move(greedy.offsets);
    result.method = greedy.method;
  } else if (!greedy_only) {
    ExactSearchResult exact =
        exact_search(problem, {limits.seconds - elapsed(), limits.placements}, progress);
    result.outcome = exact.outcome;
    result.offsets = std::move(exact.offsets);
    result.nodes = exact.nodes;
    result.method = "exact search";
  } else {
    result.method = greedy.method;
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace memplace::allocation
