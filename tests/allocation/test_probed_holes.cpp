// Probed neighbours of a rule's first guess (allocation/probed_holes.hpp): what is kept is one
// option away from the first guess and probed deeper than it, best first; what was probed is not
// probed again; and on a generated problem the neighbour the probes rank first packs where the
// first guess does not.
#include <doctest/doctest.h>

#include <vector>

#include "allocation/feasible_offsets.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/probed_holes.hpp"
#include "allocation/seen_holes.hpp"
#include "allocation/skyline_search.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace::allocation {
namespace {

ExactSearchResult probe(const Problem& problem, const std::vector<Buffer>& holes,
                        std::uint64_t placements) {
  const Problem full = with_holes(problem, holes);
  return skyline_search(full, {3600, placements}, RankOrder::busiest_section, {}, 0,
                        feasible_offsets(full));
}

// The holes of every guess one option away from the rule's first guess.
std::vector<std::vector<Buffer>> one_option_away(const Problem& problem, HoleRule rule) {
  const HoleDecompositions decompositions(problem, rule);
  std::vector<int> choices(decompositions.cuts().size() - 1, 0);
  std::vector<int> options;
  decompositions.walk(choices, &options);
  std::vector<std::vector<Buffer>> neighbours;
  for (std::size_t s = 0; s < choices.size(); ++s)
    for (int option = 1; option < options[s]; ++option) {
      choices[s] = option;
      neighbours.push_back(decompositions.walk(choices));
      choices[s] = 0;
    }
  return neighbours;
}

bool same_holes(const std::vector<Buffer>& a, const std::vector<Buffer>& b) {
  SeenHoles seen;
  seen.insert(a, false);
  return !seen.insert(b, false);
}

TEST_CASE("search results: the deepest count is the most buffers placed at once") {
  // Three buffers that fill the memory: a packing places all three.
  const Problem fits{{{"a", 0, 2, 4}, {"b", 0, 1, 4}, {"c", 1, 2, 4}}, 8, 1};
  const ExactSearchResult packed = skyline_search(fits, {3600, 0});
  REQUIRE(packed.outcome == SearchOutcome::packed);
  CHECK(packed.deepest == 3);
  // Two buffers live together that do not fit: the search never holds both at once.
  const Problem too_big{{{"a", 0, 2, 6}, {"b", 0, 2, 6}}, 8, 1};
  const ExactSearchResult refuted = skyline_search(too_big, {3600, 0});
  REQUIRE(refuted.outcome == SearchOutcome::infeasible);
  CHECK(refuted.deepest <= 1);
}

// Spare-bytes problem 150, seed 11 (found by trying seeds 1-60): split-first's first guess has no
// packing, and three of its neighbours are probed deeper.
Problem probe_case() {
  return generate_with_spare_bytes(150, 1048576, 11, 5).problem;
}

TEST_CASE("probed neighbours: the one ranked first packs where the first guess cannot") {
  const Problem p = probe_case();
  HoleDecompositions decompositions(p, HoleRule::split_first);
  CHECK(probe(p, *decompositions.next(), 0).outcome == SearchOutcome::infeasible);
  SeenHoles probed;
  const ProbedNeighbours found =
      probed_neighbours(p, HoleRule::split_first, 1, kProbePlacements, {3600, 0}, probed);
  REQUIRE(found.holes.size() == 1);
  CHECK(probe(p, found.holes[0], 10'000).outcome == SearchOutcome::packed);
}

TEST_CASE("probed neighbours: one option away, deeper than the first guess, deepest first") {
  const Problem p = probe_case();
  const HoleRule rule = HoleRule::split_first;
  SeenHoles probed;
  const ProbedNeighbours found = probed_neighbours(p, rule, 3, kProbePlacements, {3600, 0}, probed);
  REQUIRE(found.complete);
  REQUIRE_FALSE(found.holes.empty());
  HoleDecompositions decompositions(p, rule);
  const std::vector<Buffer> first = *decompositions.next();
  const int first_depth = probe(p, first, kProbePlacements).deepest;
  const std::vector<std::vector<Buffer>> neighbours = one_option_away(p, rule);
  int previous = 1 << 30;
  for (const std::vector<Buffer>& holes : found.holes) {
    bool one_away = false;
    for (const std::vector<Buffer>& n : neighbours)
      one_away = one_away || same_holes(n, holes);
    CHECK(one_away);
    const ExactSearchResult r = probe(p, holes, kProbePlacements);
    const int depth = r.outcome == SearchOutcome::packed ? 1 << 29 : r.deepest;
    CHECK(depth > first_depth);
    CHECK(depth <= previous);
    previous = depth;
  }
  // The same again: deterministic, and the count only cuts the list.
  SeenHoles again;
  const ProbedNeighbours one = probed_neighbours(p, rule, 1, kProbePlacements, {3600, 0}, again);
  REQUIRE(one.holes.size() == 1);
  CHECK(same_holes(one.holes[0], found.holes[0]));
  CHECK(one.placements == found.placements);
  // Every neighbour was probed: with the same set, none is probed again (only the first guess).
  const ProbedNeighbours none = probed_neighbours(p, rule, 3, kProbePlacements, {3600, 0}, probed);
  CHECK(none.complete);
  CHECK(none.holes.empty());
  CHECK(none.placements <= kProbePlacements);
}

}  // namespace
}  // namespace memplace::allocation
