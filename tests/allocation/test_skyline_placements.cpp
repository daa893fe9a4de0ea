// Golden placement counts of the skyline search (allocation/skyline_search.cpp). A change meant
// only to make the search faster must leave every decision as it was: the same placements, the
// same depth reached, the same verdict. These counts were recorded before the speed-ups of
// 2026-11-30 (the witness kept per section, the stackable twins listed once, the valley's bytes
// summed from the starts) and are the same after them. A change that does alter the search's
// decisions updates them, and says so in docs/allocation.md.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "allocation/feasible_offsets.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/skyline_search.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace::allocation {
namespace {

void check_run(const ExactSearchResult& r, SearchOutcome outcome, std::uint64_t nodes,
               int deepest) {
  CHECK(r.outcome == outcome);
  CHECK(r.nodes == nodes);
  CHECK(r.deepest == deepest);
}

TEST_CASE("skyline search: the placements recorded on zero-slack problems") {
  struct Golden {
    std::uint64_t seed, nodes, shuffled_nodes;
  };
  for (const Golden g : {Golden{1, 8144, 2719}, Golden{2, 80160, 11058}, Golden{3, 3906, 1025}}) {
    CAPTURE(g.seed);
    const Problem z = generate_zero_slack(300, 1048576, g.seed).problem;
    check_run(skyline_search(z, {3600, 100'000}), SearchOutcome::packed, g.nodes, 300);
    // Another rank order, shuffled, with the subset sums' offsets.
    check_run(skyline_search(z, {3600, 100'000}, RankOrder::area, {}, 2, feasible_offsets(z)),
              SearchOutcome::packed, g.shuffled_nodes, 300);
  }
  // Stopped by the placement limit, mid-search (the benchmarks' problem).
  check_run(skyline_search(generate_zero_slack(450, 1048576, 1).problem, {3600, 50'000}),
            SearchOutcome::limit, 50'000, 181);
}

TEST_CASE("skyline search: the placements recorded on guesses of a problem's holes") {
  // Spare bytes 150, seed 11: whole-first's first guess packs; split-first's is refuted.
  const Problem problem = generate_with_spare_bytes(150, 1048576, 11, 5).problem;
  const auto first_guess = [&](HoleRule rule) {
    const HoleDecompositions decompositions(problem, rule);
    std::vector<int> choices(decompositions.cuts().size() - 1, 0);
    const Problem full = with_holes(problem, decompositions.walk(choices));
    return skyline_search(full, {3600, 100'000}, RankOrder::busiest_section, {}, 0,
                          feasible_offsets(full));
  };
  check_run(first_guess(HoleRule::whole_first), SearchOutcome::packed, 283, 158);
  check_run(first_guess(HoleRule::split_first), SearchOutcome::infeasible, 3197, 76);
}

// The portfolio's kept guesses search on round after round (allocation/packer.cpp): a search run in
// parts, however small, must take the decisions of one run — the same placements in all, the same
// verdict and packing — and once decided give that verdict again without searching.
TEST_CASE("skyline search in parts: the decisions of one run") {
  const Problem z = generate_zero_slack(300, 1048576, 2).problem;
  const ExactSearchResult whole = skyline_search(z, {3600, 100'000});
  REQUIRE(whole.outcome == SearchOutcome::packed);
  REQUIRE(whole.nodes == 80160);
  for (const std::uint64_t part : {1, 7, 1000, 30'000}) {
    CAPTURE(part);
    SkylineSearch search(z);
    ExactSearchResult r;
    std::uint64_t nodes = 0;
    int runs = 0;
    do {
      r = search.run({3600, part});
      CHECK(r.nodes <= part);
      nodes += r.nodes;
      ++runs;
    } while (r.outcome == SearchOutcome::limit);
    CHECK(r.outcome == SearchOutcome::packed);
    CHECK(nodes == whole.nodes);
    CHECK(runs == static_cast<int>((whole.nodes + part - 1) / part));
    CHECK(r.offsets == whole.offsets);
    const ExactSearchResult again = search.run({3600, part});
    CHECK(again.outcome == SearchOutcome::packed);
    CHECK(again.nodes == 0);
    CHECK(again.offsets == whole.offsets);
  }
  // A refuted guess (the split-first guess above, 3,197 placements) is refuted in parts too.
  const Problem problem = generate_with_spare_bytes(150, 1048576, 11, 5).problem;
  const HoleDecompositions decompositions(problem, HoleRule::split_first);
  const Problem full = with_holes(
      problem, decompositions.walk(std::vector<int>(decompositions.cuts().size() - 1, 0)));
  const std::vector<OffsetSet> feasible = feasible_offsets(full);
  SkylineSearch search(full, RankOrder::busiest_section, 0, feasible);
  const ExactSearchResult part = search.run({3600, 1000});
  CHECK(part.outcome == SearchOutcome::limit);
  CHECK(part.nodes == 1000);
  const ExactSearchResult rest = search.run({3600, 100'000});
  CHECK(rest.outcome == SearchOutcome::infeasible);
  CHECK(rest.nodes == 2197);
  CHECK(search.run({3600, 100'000}).outcome == SearchOutcome::infeasible);
}

}  // namespace
}  // namespace memplace::allocation
