// Spare bytes filled by phantom holes (allocation/phantom_holes.hpp): the decompositions of hand
// toys written out under each rule, every decomposition of generated problems filling every
// section exactly, and `memplace pack`'s portfolio packing with them what its other runs do not,
// while cost model v2's portfolio never guesses.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "allocation/packer.hpp"
#include "allocation/packing_check.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/zero_slack_generator.hpp"
#include "tests/support/full_sections.hpp"

namespace memplace::allocation {
namespace {

using testing::every_section_full;

struct Rect {
  std::int64_t lower, upper, size;
  friend bool operator==(const Rect&, const Rect&) = default;
};

std::vector<Rect> rects(const std::vector<Buffer>& holes) {
  std::vector<Rect> out;
  for (const Buffer& h : holes)
    out.push_back({h.lower, h.upper, h.size});
  return out;
}

TEST_CASE("phantom holes: a hand toy's spare bytes, one hole per gap") {
  // Capacity 10: a (6 bytes) alone in [0, 2), with b (4) in [2, 4), b alone in [4, 6). Spare: 4,
  // 0, 6. The hole of [0, 2) ends where the memory is full; a new one opens at 4.
  const Problem p{{{"a", 0, 4, 6}, {"b", 2, 6, 4}}, 10, 1};
  for (const HoleRule rule :
       {HoleRule::whole_first, HoleRule::split_first, HoleRule::split_then_cut}) {
    HoleDecompositions d(p, rule);
    REQUIRE(d.applicable());
    const std::optional<std::vector<Buffer>> first = d.next();
    REQUIRE(first.has_value());
    CHECK(rects(*first) == std::vector<Rect>{{0, 2, 4}, {4, 6, 6}});
    CHECK((*first)[0].id == "hole 0");
    CHECK(every_section_full(p, *first));
  }
  // A full memory has nothing to decompose; nor has an aligned one, or one above its peak.
  CHECK_FALSE(HoleDecompositions({{{"a", 0, 2, 10}}, 10, 1}, HoleRule::whole_first).applicable());
  CHECK_FALSE(HoleDecompositions({{{"a", 0, 2, 8}}, 10, 2}, HoleRule::whole_first).applicable());
  CHECK_FALSE(HoleDecompositions({{{"a", 0, 2, 12}}, 10, 1}, HoleRule::whole_first).applicable());
}

TEST_CASE("phantom holes: two holes that start together, under both rules") {
  // Capacity 10; spare 5 in [0, 2), 2 in [2, 4), none in [4, 6): 3 of the 5 spare bytes end at 2.
  // whole_first ends the 5-byte hole and opens one of 2; split_first ends 3 bytes of it, so the
  // other 2 run on from 0. Each is the other's one deviation.
  const Problem p{{{"a", 0, 6, 5}, {"b", 2, 6, 3}, {"c", 4, 6, 2}}, 10, 1};
  const std::vector<Rect> whole = {{0, 2, 5}, {2, 4, 2}};
  const std::vector<Rect> split = {{0, 2, 3}, {0, 4, 2}};
  HoleDecompositions w(p, HoleRule::whole_first);
  HoleDecompositions s(p, HoleRule::split_first);
  CHECK(rects(*w.next()) == whole);
  CHECK(rects(*s.next()) == split);
  CHECK(rects(*w.next()) == split);
  CHECK(rects(*s.next()) == whole);
  CHECK_FALSE(w.next().has_value());  // one cut with a choice, two choices there
  CHECK_FALSE(s.next().has_value());
  // split_then_cut: split_first's choices, every hole cut where the spare bytes change (at 2 and
  // 4), so that the 2 bytes left may sit elsewhere after 2 — a free space either geometry holds.
  HoleDecompositions c(p, HoleRule::split_then_cut);
  CHECK(rects(*c.next()) == std::vector<Rect>{{0, 2, 3}, {0, 2, 2}, {2, 4, 2}});
  CHECK(rects(*c.next()) == std::vector<Rect>{{0, 2, 5}, {2, 4, 2}});
  CHECK_FALSE(c.next().has_value());
}

TEST_CASE("phantom holes: mixed ends, a whole hole and part of another, after the plain options") {
  // Capacity 20; spare 10 in [0, 1), 15 in [1, 2), 4 in [2, 3): at 2 the spare bytes fall by 11,
  // of the holes of 10 (open from 0) and 5 (from 1). Plain: both end and a hole of 4 opens. Mixed,
  // too: the 5 whole and 6 of the 10 (its other 4 run on from 0), or the 10 whole and 1 of the 5.
  const Problem p{{{"a", 0, 2, 5}, {"b", 0, 1, 5}, {"c", 2, 3, 16}}, 20, 1};
  const std::vector<Rect> plain = {{0, 2, 10}, {1, 2, 5}, {2, 3, 4}};
  const std::vector<Rect> five_whole = {{0, 2, 6}, {1, 2, 5}, {0, 3, 4}};
  const std::vector<Rect> ten_whole = {{0, 2, 10}, {1, 2, 1}, {1, 3, 4}};
  for (const HoleRule rule : {HoleRule::whole_first, HoleRule::split_first}) {
    const HoleDecompositions only_plain(p, rule);
    const HoleDecompositions mixed(p, rule, HoleDecompositions::kMaxOptions, HoleEnds::mixed);
    std::vector<int> options;
    CHECK(rects(only_plain.walk({}, &options)) == plain);
    CHECK(options == std::vector<int>{1, 2, 1});
    CHECK(rects(mixed.walk({}, &options)) == plain);
    CHECK(options == std::vector<int>{1, 2, 3});
    CHECK(rects(mixed.walk(std::vector<int>{0, 0, 1})) == five_whole);
    CHECK(rects(mixed.walk(std::vector<int>{0, 0, 2})) == ten_whole);
    for (const std::vector<Rect>& holes : {five_whole, ten_whole}) {
      std::vector<Buffer> buffers;
      for (const Rect& r : holes)
        buffers.push_back({"hole", r.lower, r.upper, r.size});
      CHECK(every_section_full(p, buffers));
    }
    // The bound cuts each kind: with one option a cut, the plain one and the first mixed one.
    const HoleDecompositions one(p, rule, 1, HoleEnds::mixed);
    CHECK(rects(one.walk(std::vector<int>{0, 0, 2}, &options)) == five_whole);
    CHECK(options == std::vector<int>{1, 1, 2});
  }
}

TEST_CASE("phantom holes: every decomposition fills every section of generated problems") {
  for (const std::uint64_t seed : {1, 2, 3, 4}) {
    const ZeroSlackProblem z = generate_with_spare_bytes(60, 1 << 20, seed, 10);
    for (const HoleRule rule :
         {HoleRule::whole_first, HoleRule::split_first, HoleRule::split_then_cut}) {
      HoleDecompositions d(z.problem, rule);
      REQUIRE(d.applicable());
      for (int k = 0; k < 40; ++k) {
        const std::optional<std::vector<Buffer>> holes = d.next();
        if (!holes) break;
        CHECK(every_section_full(z.problem, *holes));
        for (const Buffer& h : *holes)
          CHECK((h.size > 0 && h.lower < h.upper));
      }
    }
  }
  // With mixed ends too, along random choices of up to 24 options a cut; along the rule's first
  // options, every cut lists the plain options and maybe more.
  std::mt19937_64 rng(4019);
  int mixed_cuts = 0, mixed_taken = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const ZeroSlackProblem z = generate_with_spare_bytes(60, 1 << 20, seed, 10);
    for (const HoleRule rule : {HoleRule::whole_first, HoleRule::split_first}) {
      const HoleDecompositions plain(z.problem, rule, 24);
      const HoleDecompositions mixed(z.problem, rule, 24, HoleEnds::mixed);
      std::vector<int> options, plain_options;
      CHECK(rects(mixed.walk({}, &options)) == rects(plain.walk({}, &plain_options)));
      for (std::size_t cut = 0; cut < options.size(); ++cut) {
        CHECK(options[cut] >= plain_options[cut]);
        mixed_cuts += options[cut] > plain_options[cut];
      }
      for (int walk = 0; walk < 30; ++walk) {
        std::vector<int> choices(mixed.cuts().size() - 1);
        for (int& choice : choices)
          choice = static_cast<int>(rng() % 24);
        const std::vector<Buffer> holes = mixed.walk(choices);
        CHECK(every_section_full(z.problem, holes));
        for (const Buffer& h : holes)
          CHECK((h.size > 0 && h.lower < h.upper));
        mixed_taken += rects(holes) != rects(plain.walk(choices));
      }
    }
  }
  CHECK(mixed_cuts > 20);
  CHECK(mixed_taken > 10);
}

// The repaired sweeps offer up to 24 options a cut, everything else 6: the bound cuts one
// best-first list, so the first six options (and the holes they make) are the same under both.
TEST_CASE("phantom holes: the options bound cuts the same best-first list") {
  const ZeroSlackProblem z = generate_with_spare_bytes(450, 1 << 20, 1098, 5);
  for (const HoleRule rule : {HoleRule::whole_first, HoleRule::split_first}) {
    const HoleDecompositions six(z.problem, rule), many(z.problem, rule, 24);
    std::vector<int> options_six, options_many;
    six.walk({}, &options_six);
    many.walk({}, &options_many);
    REQUIRE(options_six.size() == options_many.size());
    bool past_six = false;
    for (std::size_t s = 0; s < options_six.size(); ++s) {
      CHECK(options_six[s] == std::min(options_many[s], 6));
      past_six = past_six || options_many[s] > 6;
      if (options_six[s] < 2) continue;
      std::vector<int> choices(s + 1, 0);
      choices[s] = options_six[s] - 1;
      const std::vector<Buffer> a = six.walk(choices), b = many.walk(choices);
      REQUIRE(a.size() == b.size());
      for (std::size_t k = 0; k < a.size(); ++k)
        CHECK((a[k].lower == b[k].lower && a[k].upper == b[k].upper && a[k].size == b[k].size));
    }
    CHECK(past_six);
  }
  CHECK_THROWS_AS(HoleDecompositions(z.problem, HoleRule::whole_first, 0), std::invalid_argument);
}

// Spare-bytes problem 450, seed 1 (a seed the change was built on): no other run of the portfolio
// packs it within its first round; the first guess of its holes makes it full and packs it.
TEST_CASE("pack: phantom holes pack a problem with spare bytes in round 1, v2 never guesses") {
  const ZeroSlackProblem z = generate_with_spare_bytes(450, 1048576, 1, 5);
  const PackResult latest = pack(z.problem, {3600, 200'000});
  REQUIRE(latest.outcome == SearchOutcome::packed);
  CHECK(latest.method == "skyline search on phantom holes (whole-first guess 1, round 1)");
  REQUIRE(latest.offsets.size() == z.problem.buffers.size());
  CHECK(packing_faults(z.problem, latest.offsets).empty());
  const PackResult v2 = pack(z.problem, {3600, 200'000}, false, {}, Portfolio::cost_model_v2);
  CHECK(v2.outcome == SearchOutcome::limit);
}

}  // namespace
}  // namespace memplace::allocation
