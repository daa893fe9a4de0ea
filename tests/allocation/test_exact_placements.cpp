// Golden placement counts of the offset-ordered search (allocation/exact_search.cpp), as
// test_skyline_placements.cpp has for the skyline search. A change meant only to make the search
// faster must leave every decision as it was: the same placements, the same depth reached, the
// same verdict. These counts were recorded before the speed-ups of 2026-12-01 (the section check
// that stops at a witness, the passes over the unplaced buffers only) and are the same after them.
#include <doctest/doctest.h>

#include <cstdint>

#include "allocation/exact_search.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace memplace::allocation {
namespace {

struct Golden {
  int buffers;
  int spare;  // percent (0: zero slack)
  std::uint64_t seed;
  RankOrder order;
  SearchOutcome outcome;
  std::uint64_t nodes;
  int deepest;
};

TEST_CASE("exact search: the placements recorded on generated problems") {
  const SearchOutcome packed = SearchOutcome::packed;
  const SearchOutcome limit = SearchOutcome::limit;
  // Under the busiest-section order the search ranks again in every run it splits off; the other
  // orders keep their ranks. The last two are stopped by the placement limit, mid-search.
  for (const Golden g : {
           Golden{150, 0, 2, RankOrder::busiest_section, packed, 12659, 150},
           Golden{150, 5, 3, RankOrder::busiest_section, packed, 844, 150},
           Golden{60, 10, 1, RankOrder::busiest_section, packed, 14598, 60},
           Golden{150, 0, 4, RankOrder::short_lifetime, packed, 13015, 150},
           Golden{300, 5, 1, RankOrder::area, packed, 18269, 300},
           Golden{60, 10, 4, RankOrder::area, packed, 62, 60},
           Golden{150, 5, 3, RankOrder::size, limit, 30'000, 79},
           Golden{150, 10, 3, RankOrder::size, limit, 30'000, 85},
       }) {
    CAPTURE(g.buffers);
    CAPTURE(g.spare);
    CAPTURE(g.seed);
    CAPTURE(name_of(g.order));
    const Problem problem =
        g.spare == 0 ? generate_zero_slack(g.buffers, 1048576, g.seed).problem
                     : generate_with_spare_bytes(g.buffers, 1048576, g.seed, g.spare).problem;
    const ExactSearchResult r = exact_search(problem, {3600, 30'000}, g.order);
    CHECK(r.outcome == g.outcome);
    CHECK(r.nodes == g.nodes);
    CHECK(r.deepest == g.deepest);
  }
}

}  // namespace
}  // namespace memplace::allocation
