// The feasible offsets (allocation/feasible_offsets.hpp) against a reference written another way:
// per buffer and offset, a knapsack table of the sums its section-mates' subsets reach, instead of
// the sorted subset sums the solver merges and filters. Random problems with up to 20 buffers live
// at once (the sections of more than 17 skipped), small sizes and no, few or many spare bytes, so
// that both ways `allowed` takes (one pass over the sums; jumps from range to range) run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "allocation/feasible_offsets.hpp"
#include "allocation/problem.hpp"

namespace memplace::allocation {
namespace {

using OffsetIntervals = OffsetSet::Intervals;

// The buffers of positive size live in each stretch between two consecutive lifetime ends.
std::vector<std::vector<int>> live_sets(const Problem& problem) {
  std::set<std::int64_t> ends;
  for (const Buffer& b : problem.buffers)
    ends.insert({b.lower, b.upper});
  std::vector<std::vector<int>> out;
  for (const std::int64_t step : ends) {
    std::vector<int> live;
    for (int i = 0; i < static_cast<int>(problem.buffers.size()); ++i) {
      const Buffer& b = problem.buffers[static_cast<std::size_t>(i)];
      if (b.size > 0 && b.lower <= step && step < b.upper) live.push_back(i);
    }
    if (!live.empty()) out.push_back(std::move(live));
  }
  return out;
}

// Buffer `self`'s offsets as intervals: those in [0, capacity - size] such that, in every stretch
// it lives in, its bytes fit (else none) and, unless more than 17 buffers live there, a subset of
// the others sums to between the offset less the stretch's spare bytes and the offset.
OffsetIntervals reference_offsets(const Problem& problem, int self) {
  const std::int64_t capacity = problem.capacity;
  const Buffer& buffer = problem.buffers[static_cast<std::size_t>(self)];
  std::vector<char> allowed(static_cast<std::size_t>(std::max<std::int64_t>(0, capacity + 1)), 0);
  for (std::int64_t o = 0; o + buffer.size <= capacity; ++o)
    allowed[static_cast<std::size_t>(o)] = 1;
  for (const std::vector<int>& live : live_sets(problem)) {
    if (buffer.size == 0 || std::find(live.begin(), live.end(), self) == live.end()) continue;
    std::int64_t spare = capacity;
    for (const int i : live)
      spare -= problem.buffers[static_cast<std::size_t>(i)].size;
    if (spare < 0) return {};
    if (live.size() > static_cast<std::size_t>(kMaxSubsetBuffers) + 1) continue;
    std::vector<char> reached(allowed.size(), 0);  // sums of subsets of the others, up to capacity
    reached[0] = 1;
    for (const int i : live) {
      if (i == self) continue;
      const std::int64_t size = problem.buffers[static_cast<std::size_t>(i)].size;
      for (std::int64_t sum = capacity; sum >= size; --sum)
        reached[static_cast<std::size_t>(sum)] |= reached[static_cast<std::size_t>(sum - size)];
    }
    for (std::int64_t o = 0; o <= capacity; ++o) {
      bool any = false;
      for (std::int64_t sum = std::max<std::int64_t>(0, o - spare); sum <= o && !any; ++sum)
        any = reached[static_cast<std::size_t>(sum)] != 0;
      if (!any) allowed[static_cast<std::size_t>(o)] = 0;
    }
  }
  OffsetIntervals out;
  for (std::int64_t o = 0; o <= capacity; ++o) {
    if (!allowed[static_cast<std::size_t>(o)]) continue;
    if (!out.empty() && out.back().second == o - 1)
      out.back().second = o;
    else
      out.emplace_back(o, o);
  }
  return out;
}

// 34 buffers over 10 steps, each living 1 to 6 of them (about 12 live at once, at times over 17),
// of 1 to 24 bytes and a few of none; the capacity the peak plus `spare` (negative: overfull).
Problem random_problem(std::uint64_t seed, std::int64_t spare) {
  std::mt19937_64 rng(seed);
  const auto below = [&](std::int64_t n) { return static_cast<std::int64_t>(rng() % n); };
  Problem problem;
  for (int i = 0; i < 34; ++i) {
    const std::int64_t lower = below(10);
    const std::int64_t size = below(8) == 0 ? 0 : 1 + below(24);
    problem.buffers.push_back({"b" + std::to_string(i), lower, lower + 1 + below(6), size});
  }
  problem.capacity = peak_live_bytes(problem.buffers) + spare;
  return problem;
}

void check_sets(const std::vector<OffsetSet>& sets, const std::vector<OffsetIntervals>& expected) {
  REQUIRE(sets.size() == expected.size());
  for (std::size_t i = 0; i < sets.size(); ++i) {
    CAPTURE(i);
    CHECK(sets[i].intervals() == expected[i]);
  }
}

TEST_CASE("feasible offsets: the same sets as a knapsack reference on random problems") {
  OffsetSetMemo memo;  // kept across problems: what it remembers must not change a set
  // What the cases mean to cover: buffers in sections of 12 to 17 buffers (4,096 sums or more)
  // whose sets end narrow (fewer than 64 intervals), which `allowed` takes by jumps.
  int narrow_in_big_sections = 0;
  for (const std::int64_t spare : {0, 3, 40, -5}) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      CAPTURE(spare);
      CAPTURE(seed);
      const Problem problem = random_problem(seed, spare);
      std::vector<OffsetIntervals> expected;
      for (int i = 0; i < static_cast<int>(problem.buffers.size()); ++i)
        expected.push_back(reference_offsets(problem, i));
      check_sets(feasible_offsets(problem), expected);
      check_sets(memo(problem), expected);
      const std::vector<std::vector<int>> live = live_sets(problem);
      for (int i = 0; i < static_cast<int>(problem.buffers.size()); ++i) {
        const std::size_t intervals = expected[static_cast<std::size_t>(i)].size();
        narrow_in_big_sections +=
            intervals > 0 && intervals < 64 &&
            std::any_of(live.begin(), live.end(), [&](const std::vector<int>& section) {
              return section.size() >= 12 &&
                     section.size() <= static_cast<std::size_t>(kMaxSubsetBuffers) + 1 &&
                     std::find(section.begin(), section.end(), i) != section.end();
            });
      }
    }
  }
  CHECK(narrow_in_big_sections > 100);
}

TEST_CASE("feasible offsets: copies of a set share its intervals, and a default set is empty") {
  const OffsetSet set(OffsetIntervals{{0, 3}, {8, 8}});
  const OffsetSet copy = set;  // NOLINT(performance-unnecessary-copy-initialization): the point
  CHECK(copy.shared() == set.shared());
  CHECK(&copy.intervals() == &set.intervals());
  CHECK(copy.at_or_above(4, 1) == 8);
  CHECK(copy.at_or_above(1, 2) == 2);
  CHECK(copy.at_or_above(9, 1) == -1);
  const OffsetSet none;
  CHECK(none.empty());
  CHECK(none.intervals().empty());
  CHECK(none.at_or_above(0, 1) == -1);
}

// The smallest multiple of `alignment` >= `at` in `list`, by walking every offset of every
// interval.
std::int64_t smallest_aligned_walked(const OffsetIntervals& list, std::int64_t at,
                                     std::int64_t alignment) {
  for (const auto& [first, last] : list)
    for (std::int64_t offset = first; offset <= last; ++offset)
      if (offset >= at && offset % alignment == 0) return offset;
  return -1;
}

TEST_CASE("feasible offsets: a look from any hint finds what a look from the start finds") {
  std::mt19937_64 rng(64);
  const auto uniform = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int far_hints = 0, moved_hints = 0;
  for (int round = 0; round < 400; ++round) {
    OffsetIntervals list;
    std::int64_t at = uniform(0, 3);
    for (std::int64_t k = uniform(0, 70); k > 0; --k) {
      const std::int64_t last = at + uniform(0, 4);
      list.emplace_back(at, last);
      at = last + uniform(2, 9);
    }
    const OffsetSet set(list);
    std::uint32_t chained = 0;  // carried from look to look, as a search carries it
    for (int look = 0; look < 60; ++look) {
      const std::int64_t query = uniform(0, at + 5);
      const std::int64_t alignment = uniform(1, 4);
      const std::int64_t expected = smallest_aligned_walked(list, query, alignment);
      REQUIRE(set.at_or_above(query, alignment) == expected);
      const std::uint32_t before = chained;
      REQUIRE(at_or_above(set.intervals(), query, alignment, chained) == expected);
      moved_hints += chained != before;
      std::uint32_t any =
          static_cast<std::uint32_t>(uniform(0, static_cast<std::int64_t>(list.size()) + 3));
      far_hints += any >= list.size();
      REQUIRE(at_or_above(set.intervals(), query, alignment, any) == expected);
    }
  }
  CHECK(far_hints > 100);
  CHECK(moved_hints > 1000);
}

}  // namespace
}  // namespace memplace::allocation
