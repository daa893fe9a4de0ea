// Calibration against published measurements (model/calibration.hpp, docs/calibration.md): the
// statistics on hand-computed cases, the set file's errors, and the shipped set's table against
// its golden file (docs/results/calibration/<chip>.csv: `memplace calibrate <chip> --csv`).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "base/errors.hpp"
#include "model/calibration.hpp"
#include "model/inputs/hardware.hpp"

namespace memplace {
namespace {

TEST_CASE("calibration: Spearman's correlation and the median on hand-computed cases") {
  CHECK(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{10, 20, 30, 40}) == 1);
  CHECK(spearman(std::vector<double>{1, 2, 3, 4}, std::vector<double>{4, 3, 2, 1}) == -1);
  // Ranks 1, 2.5, 2.5, 4 against 1, 2, 3, 4: covariance 4.5, variances 4.5 and 5.
  CHECK(spearman(std::vector<double>{1, 2, 2, 3}, std::vector<double>{1, 2, 3, 4}) ==
        doctest::Approx(4.5 / std::sqrt(4.5 * 5)));
  // Only the order counts: a monotone transform changes nothing.
  CHECK(spearman(std::vector<double>{0.1, 5, 2, 40}, std::vector<double>{1, 3, 2, 4}) == 1);
  CHECK(spearman(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3}) == 0);
  CHECK_THROWS_AS(spearman(std::vector<double>{1, 2}, std::vector<double>{1}),
                  std::invalid_argument);
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  CHECK_THROWS_AS(median({}), std::invalid_argument);
  const CalibrationRow low{"a", "A", false, false, 1.5, 2.0, std::nullopt};
  const CalibrationRow high{"b", "B", false, false, 3.0, 2.0, 2.5};
  CHECK(low.ratio() == 0.75);
  CHECK(low.error() == 0.25);
  CHECK(high.error() == 0.5);
  const std::vector<CalibrationRow> rows = {low, high};
  const CalibrationSummary s = summarize(rows);
  CHECK(s.points == 2);
  CHECK(s.median_error == doctest::Approx(0.375));
  CHECK(s.largest_error == 0.5);
  CHECK(s.median_column_spread == doctest::Approx(0.25));  // |2.5 / 2 - 1|, b only
}

TEST_CASE("calibration: a bad set file names the field") {
  const std::string head = "chip: edge-tpu\nsource: s\ncolumn: c\n";
  CHECK_THROWS_WITH_AS(
      parse_calibration_set(head + "points:\n  - {workload: vgg16, published: V, model: m}\n",
                            "set.yaml"),
      doctest::Contains("points[0]"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_calibration_set(head + "points:\n  - {workload: vgg16, published: V, published_ms: "
                                   "-1, model: m}\n",
                            "set.yaml"),
      doctest::Contains("points[0].published_ms"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_calibration_set(head +
                                "points:\n"
                                "  - {workload: vgg16, published: V, published_ms: 1, model: m}\n"
                                "  - {workload: vgg16, published: W, published_ms: 2, model: m}\n",
                            "set.yaml"),
      doctest::Contains("'vgg16' twice"), InputError);
  CHECK_THROWS_WITH_AS(parse_calibration_set(head + "points: []\nextra: 1\n", "set.yaml"),
                       doctest::Contains("extra"), InputError);
  const CalibrationSet unknown = parse_calibration_set(
      head + "points:\n  - {workload: no-such-net, published: V, published_ms: 1, model: m}\n",
      "set.yaml");
  CHECK_THROWS_WITH_AS(calibration_rows(unknown), doctest::Contains("points[0].workload"),
                       InputError);
}

TEST_CASE("calibration: the shipped sets reproduce their golden tables") {
  for (const std::string& name : embedded_calibration_set_names()) {
    CAPTURE(name);
    const CalibrationSet set = load_calibration_set(name);
    CHECK(set.chip == name);
    std::ifstream golden(std::string(MEMPLACE_SOURCE_DIR) + "/docs/results/calibration/" + name +
                         ".csv");
    REQUIRE(golden);
    std::stringstream expected;
    expected << golden.rdbuf();
    CHECK(calibration_csv(set.chip, calibration_rows(set)) == expected.str());
  }
}

TEST_CASE("calibration: the shipped calibrated chip is what the fit gives, and its table holds") {
  // workloads/calibration/hardware/edge-tpu.cal1.yaml, written by
  // `memplace calibrate edge-tpu --fit <that file> --fit-name edge-tpu.cal1`.
  const CalibrationSet set = load_calibration_set("edge-tpu");
  const CalibrationFit fit = fit_constants(set, load_hardware("edge-tpu"), "edge-tpu.cal1");
  std::ifstream shipped(std::string(MEMPLACE_SOURCE_DIR) +
                        "/workloads/calibration/hardware/edge-tpu.cal1.yaml");
  REQUIRE(shipped);
  std::stringstream text;
  text << shipped.rdbuf();
  CHECK(fit.hardware.to_yaml() == text.str());
  CHECK(fit.objective_after < fit.objective_before);
  // The fit never saw the held-out points; their figures are docs/calibration.md's.
  std::ifstream golden(std::string(MEMPLACE_SOURCE_DIR) +
                       "/docs/results/calibration/edge-tpu.cal1.csv");
  REQUIRE(golden);
  std::stringstream expected;
  expected << golden.rdbuf();
  CHECK(calibration_csv(set.chip, calibration_rows(set, "edge-tpu.cal1")) == expected.str());
  CHECK_THROWS_AS(fit_constants(CalibrationSet{}, load_hardware("edge-tpu"), "x"), InputError);
}

}  // namespace
}  // namespace memplace
