// The progress lines of a long run where stderr is not a terminal (apps/shared/progress.hpp): one
// line for the first report of each 10-second period, whichever second of it the report lands on.
#include <doctest/doctest.h>

#include <vector>

#include "apps/shared/progress.hpp"

namespace memplace::cli {
namespace {

TEST_CASE("periodic lines: the first report of each period gets a line, the others none") {
  PeriodicLines lines(10);
  // Reports about once a second; the third period's come at 21.3 s and later, none on second 20,
  // and 30-39 s has none at all.
  const std::vector<double> at{0.3, 1.2, 9.9, 10.7, 11.1, 19.95, 21.3, 29.0, 45.5, 45.6, 50.0};
  const std::vector<bool> want{true, false, false, true,  false, false,
                               true, false, true,  false, true};
  for (std::size_t k = 0; k < at.size(); ++k) {
    CAPTURE(at[k]);
    CHECK(lines.due(at[k]) == want[k]);
  }
}

}  // namespace
}  // namespace memplace::cli
