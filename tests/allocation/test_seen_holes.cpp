// The guesses a portfolio has searched (allocation/seen_holes.hpp): a repeat is known whatever
// the order of its holes, on its own side of time only; and the repeats it is for are real — on a
// generated problem, rules and guided sweeps make the same guess.
#include <doctest/doctest.h>

#include <vector>

#include "allocation/guided_holes.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/seen_holes.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace::allocation {
namespace {

TEST_CASE("seen holes: the same rectangles in any order are a repeat, on the same side of time") {
  const std::vector<Buffer> holes{{"hole 0", 0, 4, 8}, {"hole 1", 2, 9, 3}};
  const std::vector<Buffer> swapped{{"hole 0", 2, 9, 3}, {"hole 1", 0, 4, 8}};
  SeenHoles seen;
  CHECK(seen.insert(holes, false));
  CHECK_FALSE(seen.insert(holes, false));
  CHECK_FALSE(seen.insert(swapped, false));  // the ids do not matter, nor the order
  CHECK(seen.insert(swapped, true));         // made on the problem with time reversed
  CHECK_FALSE(seen.insert(holes, true));
  // One rectangle different in one field each time: new.
  CHECK(seen.insert(std::vector<Buffer>{{"", 0, 4, 8}, {"", 2, 9, 4}}, false));
  CHECK(seen.insert(std::vector<Buffer>{{"", 0, 4, 8}, {"", 2, 8, 3}}, false));
  CHECK(seen.insert(std::vector<Buffer>{{"", 1, 4, 8}, {"", 2, 9, 3}}, false));
  CHECK(seen.insert(std::vector<Buffer>{{"", 0, 4, 8}}, false));  // a subset
  CHECK(seen.insert(std::vector<Buffer>{}, false));
  CHECK_FALSE(seen.insert(std::vector<Buffer>{}, false));
}

// Spare-bytes problem 150, seed 3: split-first and whole-first make the same first guess, and the
// narrow guided sweeps of both keep every cut's first option, so the four are one guess. A
// guess with one deviation is another.
TEST_CASE("seen holes: rules and guided sweeps repeat a guess on a generated problem") {
  const Problem p = generate_with_spare_bytes(150, 1048576, 3, 5).problem;
  HoleDecompositions split(p, HoleRule::split_first);
  HoleDecompositions whole(p, HoleRule::whole_first);
  SeenHoles seen;
  CHECK(seen.insert(*split.next(), false));
  CHECK_FALSE(seen.insert(*whole.next(), false));
  for (const HoleRule rule : {HoleRule::split_first, HoleRule::whole_first}) {
    const GuidedGuess guided = guided_holes(p, rule, kNarrowGuide, {3600, 0});
    REQUIRE(guided.complete);
    CHECK_FALSE(seen.insert(guided.holes, false));
  }
  CHECK(seen.insert(*split.next(), false));
}

}  // namespace
}  // namespace memplace::allocation
