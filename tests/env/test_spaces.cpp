// The portable Rng and the spaces: known values, ranges, masks and rejections.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "base/rng.hpp"
#include "env/spaces.hpp"

namespace memplace {
namespace {

TEST_CASE("Rng: known values for known seeds") {
  // From an independent transcription of splitmix64 seeding + xoshiro256** (Python, arbitrary
  // precision integers). Golden trajectories rely on these staying the same on every platform.
  Rng zero(0);
  CHECK(zero.next() == 0x99ec5f36cb75f2b4ULL);
  CHECK(zero.next() == 0xbf6e1f784956452aULL);
  CHECK(zero.next() == 0x1a5f849d4933e6e0ULL);
  Rng paper(2026);
  CHECK(paper.next() == 0x92e011592e98ae15ULL);
  Rng bounded(42);
  std::vector<std::uint64_t> digits;
  for (int i = 0; i < 10; ++i)
    digits.push_back(bounded.uniform(10));
  CHECK(digits == std::vector<std::uint64_t>{0, 3, 6, 9, 9, 7, 7, 8, 7, 5});
  Rng unit(42);
  CHECK(unit.uniform01() == 0.08386297105988216);
  CHECK(unit.uniform01() == 0.3789802506626686);
}

TEST_CASE("Rng: the same seed gives the same stream and reseed restarts it") {
  Rng a(7);
  Rng b(7);
  Rng c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.next();
    CHECK(x == b.next());
    differs = differs || x != c.next();
  }
  CHECK(differs);
  CHECK(a == b);
  CHECK_FALSE(a == c);
  a.reseed(7);
  CHECK(a == Rng(7));
  CHECK(a.next() == Rng(7).next());
}

TEST_CASE("Rng: uniform stays in range and reaches every value") {
  Rng rng(3);
  for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 7ULL, 100ULL}) {
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 4000; ++i) {
      const std::uint64_t x = rng.uniform(n);
      REQUIRE(x < n);
      seen.insert(x);
    }
    CHECK(seen.size() == n);
  }
  // Bounds where rejection matters most (the threshold is large).
  const std::uint64_t big = (1ULL << 63) + 1;
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(rng.uniform(big) < big);
    REQUIRE(rng.uniform(max) < max);
    const double u = rng.uniform01();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
}

TEST_CASE("Discrete: contains and sample respect n and the mask") {
  const Discrete d{4};
  CHECK(d.contains(0));
  CHECK(d.contains(3));
  CHECK_FALSE(d.contains(-1));
  CHECK_FALSE(d.contains(4));
  CHECK(d.describe() == "Discrete(4)");
  Rng rng(1);
  std::set<std::int64_t> seen;
  const std::vector<std::uint8_t> mask = {0, 1, 0, 1};
  for (int i = 0; i < 500; ++i) {
    const std::int64_t a = d.sample(rng, mask);
    REQUIRE((a == 1 || a == 3));
    seen.insert(a);
    REQUIRE(d.contains(d.sample(rng)));
  }
  CHECK(seen == std::set<std::int64_t>{1, 3});
  // Any nonzero byte allows.
  const std::vector<std::uint8_t> only_two = {0, 0, 7, 0};
  CHECK(d.sample(rng, only_two) == 2);
}

TEST_CASE("Discrete: sample throws on an all-zero or wrong-size mask and an empty space") {
  const Discrete d{3};
  Rng rng(1);
  const std::vector<std::uint8_t> none = {0, 0, 0};
  const std::vector<std::uint8_t> short_mask = {1, 1};
  const std::vector<std::uint8_t> long_mask = {1, 1, 1, 1};
  CHECK_THROWS_AS(d.sample(rng, none), std::invalid_argument);
  CHECK_THROWS_WITH_AS(d.sample(rng, short_mask), doctest::Contains("mask has 2 entries"),
                       std::invalid_argument);
  CHECK_THROWS_AS(d.sample(rng, long_mask), std::invalid_argument);
  CHECK_THROWS_AS(Discrete{0}.sample(rng), std::invalid_argument);
  // A rejected sample draws nothing: the stream is where it was.
  CHECK(rng == Rng(1));
}

TEST_CASE("MultiDiscrete: contains and sample") {
  const MultiDiscrete md{{2, 3, 1}};
  const std::vector<std::int64_t> ok = {1, 2, 0};
  const std::vector<std::int64_t> too_big = {1, 3, 0};
  const std::vector<std::int64_t> negative = {-1, 0, 0};
  const std::vector<std::int64_t> short_action = {1, 2};
  const std::vector<std::int64_t> long_action = {1, 2, 0, 0};
  CHECK(md.contains(ok));
  CHECK_FALSE(md.contains(too_big));
  CHECK_FALSE(md.contains(negative));
  CHECK_FALSE(md.contains(short_action));
  CHECK_FALSE(md.contains(long_action));
  CHECK(md.describe() == "MultiDiscrete([2, 3, 1])");
  CHECK(MultiDiscrete{{3, 3, 3, 3}}.describe() == "MultiDiscrete([3] * 4)");

  Rng rng(5);
  std::set<std::int64_t> middle;
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::int64_t> a = md.sample(rng);
    REQUIRE(md.contains(a));
    middle.insert(a[1]);
  }
  CHECK(middle.size() == 3);
  // Both overloads draw the same values from the same stream.
  Rng r1(9);
  Rng r2(9);
  std::vector<std::int64_t> out(3);
  md.sample(r2, out);
  CHECK(md.sample(r1) == out);
  std::vector<std::int64_t> wrong(2);
  CHECK_THROWS_AS(md.sample(rng, wrong), std::invalid_argument);
}

TEST_CASE("Box: contains rejects NaN and out-of-bounds values and the wrong size") {
  const Box box{{2, 2}, -1.0f, 1.0f};
  CHECK(box.size() == 4);
  const std::vector<float> inside = {-1.0f, 0.0f, 0.5f, 1.0f};  // bounds are inclusive
  const std::vector<float> nan = {0.0f, std::nanf(""), 0.0f, 0.0f};
  const std::vector<float> above = {0.0f, 0.0f, 1.0001f, 0.0f};
  const std::vector<float> below = {-1.5f, 0.0f, 0.0f, 0.0f};
  const std::vector<float> inf = {std::numeric_limits<float>::infinity(), 0.0f, 0.0f, 0.0f};
  const std::vector<float> short_value = {0.0f, 0.0f, 0.0f};
  CHECK(box.contains(inside));
  CHECK_FALSE(box.contains(nan));
  CHECK_FALSE(box.contains(above));
  CHECK_FALSE(box.contains(below));
  CHECK_FALSE(box.contains(inf));
  CHECK_FALSE(box.contains(short_value));
  Rng rng(2);
  for (int i = 0; i < 100; ++i)
    REQUIRE(box.contains(box.sample(rng)));
}

TEST_CASE("GraphSpace: node box and description") {
  const GraphSpace g{5, 3, 4, 2, 0.0f, 1.0f};
  const Box b = g.node_box();
  CHECK(b.shape == std::vector<std::size_t>{5, 3});
  CHECK(b.size() == 15);
  CHECK(describe(Space(g)) == g.describe());
  CHECK(g.describe().find("edges 2 x 4") != std::string::npos);
  CHECK(describe(Space(Discrete{3})) == "Discrete(3)");
}

}  // namespace
}  // namespace memplace
