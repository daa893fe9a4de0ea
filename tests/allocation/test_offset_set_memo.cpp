// The memo of feasible offsets (allocation/feasible_offsets.hpp, OffsetSetMemo) gives the same
// sets as computing them afresh, over the problems the portfolio feeds it — a problem with spare
// bytes, its guesses of the holes, a guided sweep's overlapping windows — and when its bound makes
// it forget along the way; and the subset sums it keeps per section fit a section of the same
// sizes whatever the order of its buffers.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "allocation/feasible_offsets.hpp"
#include "allocation/guided_holes.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace::allocation {
namespace {

// The problems a portfolio computes sets for, in its order: the problem, each rule's first guess
// and a few more, and windows around every fourth cut under each of its first two options.
std::vector<Problem> portfolio_like_problems(const Problem& problem) {
  std::vector<Problem> out{problem};
  for (const HoleRule rule : {HoleRule::whole_first, HoleRule::split_first}) {
    HoleDecompositions decompositions(problem, rule);
    const std::vector<std::int64_t>& cuts = decompositions.cuts();
    const int sections = static_cast<int>(cuts.size()) - 1;
    std::vector<int> choices(static_cast<std::size_t>(sections), 0);
    std::vector<int> options;
    out.push_back(with_holes(problem, decompositions.walk(choices, &options)));
    for (int s = 0; s < sections; s += 4)
      for (int option = 0; option < std::min(options[static_cast<std::size_t>(s)], 2); ++option) {
        choices[static_cast<std::size_t>(s)] = option;
        out.push_back(time_window(with_holes(problem, decompositions.walk(choices)),
                                  cuts[static_cast<std::size_t>(std::max(0, s - 6))],
                                  cuts[static_cast<std::size_t>(std::min(sections, s + 6))]));
        choices[static_cast<std::size_t>(s)] = 0;
      }
    for (int k = 0; k < 3; ++k)
      if (const auto holes = decompositions.next()) out.push_back(with_holes(problem, *holes));
  }
  return out;
}

void check_same_sets(OffsetSetMemo& memo, const std::vector<Problem>& problems) {
  for (std::size_t p = 0; p < problems.size(); ++p) {
    CAPTURE(p);
    const std::vector<OffsetSet> afresh = feasible_offsets(problems[p]);
    const std::vector<OffsetSet> remembered = memo(problems[p]);
    REQUIRE(remembered.size() == afresh.size());
    for (std::size_t i = 0; i < afresh.size(); ++i) {
      CAPTURE(i);
      CHECK(remembered[i].intervals() == afresh[i].intervals());
    }
  }
}

TEST_CASE("feasible offsets remembered: the same sets as afresh over guesses and windows") {
  OffsetSetMemo memo;
  for (const std::uint64_t seed : {3, 11}) {
    CAPTURE(seed);
    check_same_sets(
        memo, portfolio_like_problems(generate_with_spare_bytes(60, 1048576, seed, 5).problem));
  }
  // A second pass meets every set remembered: still the same.
  check_same_sets(memo,
                  portfolio_like_problems(generate_with_spare_bytes(60, 1048576, 3, 5).problem));
}

TEST_CASE("feasible offsets remembered: forgetting at a small bound changes no set") {
  OffsetSetMemo memo(200);  // dropped after a problem or two
  check_same_sets(memo,
                  portfolio_like_problems(generate_with_spare_bytes(60, 1048576, 7, 5).problem));
}

TEST_CASE("feasible offsets remembered: keeping few subset sums changes no set") {
  OffsetSetMemo memo(OffsetSetMemo::kMaxStoredWords, 64);  // room for one section of 6 buffers
  check_same_sets(memo,
                  portfolio_like_problems(generate_with_spare_bytes(60, 1048576, 7, 5).problem));
}

TEST_CASE("feasible offsets remembered: a section's sums fit its sizes in any order") {
  // Both problems share the section [0, 1) of sizes 2, 3 and 4 with no spare byte, its buffers
  // listed in opposite orders. In the second, w lives on (a section more), so its set is made
  // afresh from the sums the first left: the sums of u and v, {0, 2, 3, 5}. Sums taken by the
  // order of the buffers would leave out u instead: {0, 3, 4}.
  const Problem first{{{"u", 0, 1, 2}, {"v", 0, 1, 3}, {"w", 0, 2, 4}}, 9, 1};
  const Problem second{{{"w", 0, 3, 4}, {"v", 0, 1, 3}, {"u", 0, 1, 2}, {"t", 2, 3, 1}}, 9, 1};
  OffsetSetMemo memo;
  check_same_sets(memo, {first, second});
  CHECK(memo(second)[0].intervals() ==
        std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 0}, {2, 3}, {5, 5}});
}

TEST_CASE("feasible offsets remembered: an overfull section and a buffer too big stay empty") {
  // Two buffers of 6 bytes live together under a capacity of 10: no offset for either; a third of
  // 12 bytes fits nowhere; a fourth, alone after them, anywhere in [0, 10 - 4].
  const Problem problem{{{"a", 0, 2, 6}, {"b", 0, 2, 6}, {"c", 2, 3, 12}, {"d", 3, 5, 4}}, 10, 1};
  OffsetSetMemo memo;
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<OffsetSet> sets = memo(problem);
    REQUIRE(sets.size() == 4);
    CHECK(sets[0].empty());
    CHECK(sets[1].empty());
    CHECK(sets[2].empty());
    CHECK(sets[3].intervals() == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 6}});
  }
}

}  // namespace
}  // namespace memplace::allocation
