// experiments/suite/aggregate_statistics.hpp against hand-computed cases: IQMs of known sets,
// quantiles, the probability of improvement of two known sets, performance profiles, and bootstraps
// whose distribution is known in closed form (a stratified one that cannot vary, a two-value one
// whose IQMs are 0, 5 and 10 with probabilities 1/4, 1/2, 1/4).
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "experiments/suite/aggregate_statistics.hpp"

namespace memplace::experiments {
namespace {

TEST_CASE("statistics: the interquartile mean drops floor(n/4) from each end") {
  const std::vector<double> eight = {8, 1, 7, 2, 6, 3, 5, 4};
  CHECK(interquartile_mean(eight) == 4.5);  // mean of 3, 4, 5, 6
  const std::vector<double> five = {100, 2, 1, 4, 3};
  CHECK(interquartile_mean(five) == 3.0);  // one dropped at each end: mean of 2, 3, 4
  const std::vector<double> three = {1, 2, 30};
  CHECK(interquartile_mean(three) == 11.0);  // nothing to drop under four values
  CHECK(pooled_interquartile_mean({{1, 2, 3, 4}, {5, 6, 7, 8}}) == 4.5);
  CHECK_THROWS_AS(interquartile_mean(std::vector<double>{}), std::invalid_argument);
  CHECK_THROWS_AS(pooled_interquartile_mean({{1.0}, {}}), std::invalid_argument);
}

TEST_CASE("statistics: quantiles interpolate between order statistics") {
  const std::vector<double> v = {4, 1, 3, 2};
  CHECK(quantile(v, 0.0) == 1.0);
  CHECK(quantile(v, 0.5) == 2.5);
  CHECK(quantile(v, 1.0) == 4.0);
  CHECK(quantile(v, 1.0 / 3.0) == doctest::Approx(2.0));
  CHECK_THROWS_AS(quantile(v, 1.5), std::invalid_argument);
}

TEST_CASE("statistics: probability of improvement counts pairs, ties half, per instance") {
  // Instance 1: X = {1, 2, 3}, Y = {2, 2}: pairs won 0, 0, 0.5, 0.5, 1, 1 -> 3 / 6.
  // Instance 2: X = {5}, Y = {1, 9}: 1 and 0 -> 1 / 2. Instance 3: X = {2}, Y = {1}: 1.
  const RunScores x = {{1, 2, 3}, {5}, {2}};
  const RunScores y = {{2, 2}, {1, 9}, {1}};
  CHECK(probability_of_improvement(x, y) == doctest::Approx((0.5 + 0.5 + 1.0) / 3));
  CHECK(probability_of_improvement(y, x) == doctest::Approx((0.5 + 0.5 + 0.0) / 3));
  CHECK(probability_of_improvement(x, x) == 0.5);
  CHECK_THROWS_AS(probability_of_improvement(x, {{1.0}}), std::invalid_argument);
}

TEST_CASE("statistics: a performance profile is the share of runs above each threshold") {
  const RunScores scores = {{0.1, 0.5}, {0.9}};
  const std::vector<double> thresholds = {0.0, 0.1, 0.5, 0.8, 1.0};
  CHECK(performance_profile(scores, thresholds) ==
        std::vector<double>{1.0, 2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0});
}

TEST_CASE("statistics: the stratified bootstrap resamples within instances only") {
  // Every resample keeps four runs of each instance, so every pooled set is {0 x4, 1 x4}, whose
  // IQM is 0.5: the interval cannot move. (Resampling the pool would give IQMs from 0 to 1.)
  const RunScores split = {{0, 0, 0, 0}, {1, 1, 1, 1}};
  const Interval fixed = stratified_bootstrap_iqm(split, 500, 0.95, 7);
  CHECK(fixed.low == 0.5);
  CHECK(fixed.high == 0.5);
  // One instance, runs {0, 10}: a resample's IQM (two values: nothing dropped) is 0, 5 or 10 with
  // probabilities 1/4, 1/2, 1/4, so the 95 % interval is [0, 10] and the 40 % one [5, 5].
  const RunScores two = {{0, 10}};
  const Interval wide = stratified_bootstrap_iqm(two, 4000, 0.95, 3);
  CHECK(wide.low == 0.0);
  CHECK(wide.high == 10.0);
  const Interval middle = stratified_bootstrap_iqm(two, 4000, 0.40, 3);
  CHECK(middle.low == 5.0);
  CHECK(middle.high == 5.0);
}

TEST_CASE("statistics: the bootstrap is a function of its seed, and its interval nests") {
  const RunScores scores = {{1.0, 1.2, 0.9, 1.1, 1.4}, {0.7, 0.8, 1.0, 0.95, 0.6}, {1.3, 1.25}};
  const Interval a = stratified_bootstrap_iqm(scores, 1000, 0.95, 11);
  const Interval b = stratified_bootstrap_iqm(scores, 1000, 0.95, 11);
  CHECK(a.low == b.low);
  CHECK(a.high == b.high);
  const Interval narrow = stratified_bootstrap_iqm(scores, 1000, 0.5, 11);
  CHECK(a.low <= narrow.low);
  CHECK(narrow.low <= narrow.high);
  CHECK(narrow.high <= a.high);
  const double point = pooled_interquartile_mean(scores);
  CHECK(a.low <= point);
  CHECK(point <= a.high);
  CHECK_THROWS_AS(stratified_bootstrap_iqm(scores, 0, 0.95, 1), std::invalid_argument);
  CHECK_THROWS_AS(stratified_bootstrap_iqm(scores, 10, 1.0, 1), std::invalid_argument);
}

TEST_CASE("statistics: the intervals of a comparison resample each side within instances") {
  // Every run of X beats every run of Y and no resample can change either pool: IQM(X) = mean of
  // the middle {1, 3} = 2, IQM(Y) = 0.5, so the difference is 1.5 and P(X > Y) is 1 in every draw.
  const RunScores x = {{1, 1}, {3, 3}};
  const RunScores y = {{0, 0}, {1, 1}};
  const Interval difference = stratified_bootstrap_iqm_difference(x, y, 500, 0.95, 5);
  CHECK(difference.low == 1.5);
  CHECK(difference.high == 1.5);
  const Interval p = stratified_bootstrap_probability_of_improvement(x, y, 500, 0.95, 5);
  CHECK(p.low == 1.0);
  CHECK(p.high == 1.0);
  // One instance, X's runs {0, 10} against Y's {5, 5}: a draw of X has IQM 0, 5 or 10 (with
  // probabilities 1/4, 1/2, 1/4) and wins 0, 1/2 or 1 of its pairs, so the 95 % intervals are
  // [-5, 5] and [0, 1], the 40 % ones a point.
  const RunScores spread = {{0, 10}};
  const RunScores flat = {{5, 5}};
  const Interval wide = stratified_bootstrap_iqm_difference(spread, flat, 4000, 0.95, 3);
  CHECK(wide.low == -5.0);
  CHECK(wide.high == 5.0);
  const Interval middle = stratified_bootstrap_iqm_difference(spread, flat, 4000, 0.40, 3);
  CHECK(middle.low == 0.0);
  CHECK(middle.high == 0.0);
  const Interval p_wide =
      stratified_bootstrap_probability_of_improvement(spread, flat, 4000, 0.95, 3);
  CHECK(p_wide.low == 0.0);
  CHECK(p_wide.high == 1.0);
  // The two sides draw independently: an agent against itself is not a point at 0.
  const Interval self = stratified_bootstrap_iqm_difference(spread, spread, 4000, 0.95, 3);
  CHECK(self.low == -10.0);
  CHECK(self.high == 10.0);
  CHECK_THROWS_AS(stratified_bootstrap_iqm_difference(x, spread, 10, 0.95, 1),
                  std::invalid_argument);
  CHECK_THROWS_AS(stratified_bootstrap_probability_of_improvement(x, {{1}, {}}, 10, 0.95, 1),
                  std::invalid_argument);
  CHECK_THROWS_AS(stratified_bootstrap_iqm_difference(x, y, 10, 0.0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace memplace::experiments
