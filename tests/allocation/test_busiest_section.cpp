// The problems with spare bytes and what was added for them: the busiest-section rank order
// (MiniMalloc's "TWA", ranked again in every run of the offset-ordered search) — its ranks on a
// hand toy, the portfolios that do and do not run it —, the skyline search's rises that jump back
// past unrelated decisions, and the spare-bytes generator's promises.
#include <doctest/doctest.h>

#include <vector>

#include "allocation/exact_search.hpp"
#include "allocation/feasible_offsets.hpp"
#include "allocation/packer.hpp"
#include "allocation/packing_check.hpp"
#include "allocation/search_common.hpp"
#include "allocation/skyline_search.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace::allocation {
namespace {

TEST_CASE("busiest-section order: the bytes of a buffer's busiest step, then lifetime, then area") {
  // Steps 0-3: A [0,2) 4 bytes, B [1,3) 2, C [2,4) 1, D [3,4) 2; live bytes per step 4, 6, 3, 3.
  // A and B reach 6 and live 2 steps each (A's area, 8, beats B's 4); C and D reach 3 (C lives 2
  // steps, D 1). Given in the order D, C, B, A.
  const std::vector<Buffer> buffers{{"D", 3, 4, 2}, {"C", 2, 4, 1}, {"B", 1, 3, 2}, {"A", 0, 2, 4}};
  CHECK(detail::tie_break_ranks(buffers, RankOrder::busiest_section) ==
        std::vector<int>{3, 2, 1, 0});
  // The size order, for contrast: A, then D and B (2 bytes; B lives longer), then C.
  CHECK(detail::tie_break_ranks(buffers, RankOrder::size) == std::vector<int>{2, 3, 1, 0});
}

TEST_CASE("spare-bytes generator: the buffers asked for, the packing it hides, room to spare") {
  for (const std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const ZeroSlackProblem z = generate_with_spare_bytes(200, 1 << 16, seed, 10);
    REQUIRE(z.problem.buffers.size() == 200);
    CHECK(z.problem.capacity == 1 << 16);
    CHECK(packing_faults(z.problem, z.offsets).empty());
    CHECK(peak_live_bytes(z.problem.buffers) <= 1 << 16);
    // 20 of the 220 buffers cut were removed: some step has spare bytes.
    const Sections s = time_sections(z.problem.buffers);
    std::vector<std::int64_t> live(s.count(), 0);
    for (std::size_t i = 0; i < z.problem.buffers.size(); ++i)
      for (int k = s.first[i]; k < s.last[i]; ++k)
        live[k] += z.problem.buffers[i].size;
    int with_room = 0;
    for (const std::int64_t bytes : live)
      with_room += bytes < (1 << 16);
    CHECK(with_room > 0);
  }
  CHECK(generate_with_spare_bytes(50, 1000, 7, 0).problem.buffers ==
        generate_zero_slack(50, 1000, 7).problem.buffers);
  CHECK(generate_with_spare_bytes(50, 1000, 7, 20).problem.buffers ==
        generate_with_spare_bytes(50, 1000, 7, 20).problem.buffers);
  CHECK_THROWS(generate_with_spare_bytes(50, 1000, 7, 101));
}

// The offset-ordered search under the busiest-section order alone packs a problem with spare
// bytes that cost model v2's portfolio (the six other orders, both searches) does not pack within
// 10 times the placements; `memplace pack`'s portfolio runs it first and packs it in round 1.
TEST_CASE("pack: the busiest-section order packs what cost model v2's portfolio does not") {
  const ZeroSlackProblem z = generate_with_spare_bytes(150, 1048576, 3, 5);
  const ExactSearchResult alone =
      exact_search(z.problem, {3600, 5'000}, RankOrder::busiest_section);
  REQUIRE(alone.outcome == SearchOutcome::packed);
  CHECK(packing_faults(z.problem, alone.offsets).empty());
  const PackResult v2 =
      pack(z.problem, {3600, 10 * alone.nodes}, false, {}, Portfolio::cost_model_v2);
  CHECK(v2.outcome == SearchOutcome::limit);
  const PackResult latest = pack(z.problem, {3600, 5'000});
  REQUIRE(latest.outcome == SearchOutcome::packed);
  CHECK(latest.method == "exact search (busiest section order, round 1)");
}

// A rise of a floor reads only the sections its section's unplaced buffers span, and names the
// decisions that touched them as its reason; until 2026-11-29 it named every earlier decision, so
// a failure under a rise went back one decision at a time. On this problem the skyline search
// under the area order then reached 5,000,000 placements unpacked; now it packs within 4,096 (the
// portfolio's first budget).
TEST_CASE("skyline search: a rise's reason is its span, so it jumps back past the rest") {
  const ZeroSlackProblem z = generate_with_spare_bytes(150, 1048576, 2, 5);
  const std::vector<OffsetSet> feasible = feasible_offsets(z.problem);
  const ExactSearchResult r =
      skyline_search(z.problem, {3600, 4096}, RankOrder::area, {}, 0, feasible);
  REQUIRE(r.outcome == SearchOutcome::packed);
  CHECK(packing_faults(z.problem, r.offsets).empty());
}

}  // namespace
}  // namespace memplace::allocation
