// The allocation solver's exact searches (allocation/): placements per second on a generated
// zero-slack problem of 450 buffers that neither search packs within the placement limit, so every
// iteration does the same, complete work (a placement limit stops a search at the same place on
// any machine); and `memplace pack`'s whole portfolio on a problem of 450 buffers with 5 % spare
// bytes (spare seed 191, whose minute goes mostly to raising floors), stopped at 300,000
// placements, and on one (spare seed 2154) stopped at 3,000,000, deep in its skyline searches. The
// portfolio's running time is placements divided by these rates (docs/allocation.md, "How it
// solves"), after the offsets from subset sums, which every skyline run needs first: timed on
// their own on a problem of 300 buffers with spare bytes (spare seed 2) whose sections hold up to
// 18 buffers (2^18 subset sums each).
#include <benchmark/benchmark.h>

#include "bench/bench_main.hpp"

#include "allocation/exact_search.hpp"
#include "allocation/feasible_offsets.hpp"
#include "allocation/packer.hpp"
#include "allocation/skyline_search.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace {
namespace {

using allocation::ExactSearchResult;

constexpr std::uint64_t kPlacements = 50'000;
// The portfolio's round 1 alone is some 100,000 placements.
constexpr std::uint64_t kPortfolioPlacements = 300'000;
// Where a hard problem's minute goes (spare seed 2154, which the portfolio does not pack within
// one): past the cheap runs of the first rounds, deep skyline searches on guesses of the holes.
constexpr std::uint64_t kDeepPortfolioPlacements = 3'000'000;

template <typename Search>
void placements_per_second(benchmark::State& state, const allocation::Problem& problem,
                           Search search, std::uint64_t limit = kPlacements) {
  std::uint64_t placements = 0;
  for (auto _ : state) {
    const ExactSearchResult r = search(problem, allocation::SearchLimits{3600, limit});
    if (r.outcome != allocation::SearchOutcome::limit)
      state.SkipWithError("the search ended within the limit: pick a harder problem");
    placements += r.nodes;
  }
  state.counters["placements/s"] =
      benchmark::Counter(static_cast<double>(placements), benchmark::Counter::kIsRate);
}

// `memplace pack`'s portfolio, its result as a search's.
ExactSearchResult run_portfolio(const allocation::Problem& problem,
                                const allocation::SearchLimits& limits) {
  const allocation::PackResult r = allocation::pack(problem, limits);
  return ExactSearchResult{r.outcome, {}, r.nodes, r.seconds};
}

}  // namespace

void register_benchmarks() {
  benchmark::RegisterBenchmark("pack/feasible-offsets/spare-bytes-300", [](benchmark::State& s) {
    const allocation::Problem problem =
        allocation::generate_with_spare_bytes(300, 1 << 20, 2, 5).problem;
    for (auto _ : s)
      benchmark::DoNotOptimize(allocation::feasible_offsets(problem));
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("pack/offset-ordered/zero-slack-450", [](benchmark::State& s) {
    placements_per_second(
        s, allocation::generate_zero_slack(450, 1 << 20, 1).problem,
        [](const auto& p, const auto& l) { return allocation::exact_search(p, l); });
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("pack/skyline/zero-slack-450", [](benchmark::State& s) {
    placements_per_second(
        s, allocation::generate_zero_slack(450, 1 << 20, 1).problem,
        [](const auto& p, const auto& l) { return allocation::skyline_search(p, l); });
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("pack/portfolio/spare-bytes-450", [](benchmark::State& s) {
    placements_per_second(s, allocation::generate_with_spare_bytes(450, 1 << 20, 191, 5).problem,
                          run_portfolio, kPortfolioPlacements);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("pack/portfolio/spare-bytes-450-deep", [](benchmark::State& s) {
    placements_per_second(s, allocation::generate_with_spare_bytes(450, 1 << 20, 2154, 5).problem,
                          run_portfolio, kDeepPortfolioPlacements);
  })->Unit(benchmark::kMillisecond);
}

}  // namespace memplace
