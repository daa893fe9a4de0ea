#include "env/allocation/packer.hpp"

#include <algorithm>
#include <chrono>

#include "env/allocation/greedy_packing.hpp"

namespace memplace::allocation {
namespace {

// The first placement budget of the portfolio's runs; it doubles every round.
constexpr std::uint64_t kFirstBudget = 4096;

// The exact search under every rank order in turn, each run stopped at a placement budget that
// doubles every round: an order that makes one problem hard often makes another easy, and a run
// that ends within its budget decides the problem, as every order gives a complete search. At most
// twice the placements of the run that decides, times the number of orders. `method` names it.
ExactSearchResult portfolio_search(const Problem& problem, const SearchLimits& limits,
                                   const SearchProgressCallback& progress, std::string& method) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t spent = 0;
  for (std::uint64_t budget = kFirstBudget, round = 1;; budget *= 2, ++round)
    for (const RankOrder order : kRankOrders) {
      const double seconds_left =
          limits.seconds -
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::uint64_t run_budget = budget;
      if (limits.placements > 0) run_budget = std::min(run_budget, limits.placements - spent);
      const SearchProgressCallback shifted = [&](const SearchProgress& p) {
        progress({spent + p.nodes, p.deepest, p.buffers,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
      };
      ExactSearchResult r =
          exact_search(problem, {seconds_left, run_budget}, order, progress ? shifted : nullptr);
      spent += r.nodes;
      const bool budget_stopped = r.outcome == SearchOutcome::limit && r.nodes == run_budget;
      if (!budget_stopped || (limits.placements > 0 && spent >= limits.placements)) {
        method = "exact search (" + name_of(order) + " order, round " + std::to_string(round) + ")";
        r.nodes = spent;
        return r;
      }
    }
}

}  // namespace

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
    ExactSearchResult exact = portfolio_search(
        problem, {limits.seconds - elapsed(), limits.placements}, progress, result.method);
    result.outcome = exact.outcome;
    result.offsets = std::move(exact.offsets);
    result.nodes = exact.nodes;
  } else {
    result.method = greedy.method;
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace memplace::allocation
