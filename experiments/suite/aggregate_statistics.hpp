// Aggregate statistics over instances x seeds, as the deep-RL evaluation literature recommends
// for few runs on many tasks (Agarwal et al., NeurIPS 2021, "Deep RL at the edge of the
// statistical precipice"; their library, rliable): the interquartile mean, its stratified-bootstrap
// confidence interval, the probability of improvement of one agent over another, and performance
// profiles. Written from the paper's definitions; the random draws come from memplace's portable
// generator under a given seed, so a report is the same bytes on every machine.
//
// Scores are given per instance (a "task"): scores[t] holds the runs (seeds) of instance t. The
// instances may have different numbers of runs; none may have none.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace memplace::experiments {

using RunScores = std::vector<std::vector<double>>;  // [instance][run]

// The mean of the middle half: the values sorted, floor(n / 4) dropped from each end (scipy's
// trim_mean(x, 0.25), which rliable's IQM is). Throws std::invalid_argument when empty.
double interquartile_mean(std::span<const double> values);

// Every run of every instance, in order. Throws std::invalid_argument for an instance without
// runs.
std::vector<double> pooled_runs(const RunScores& scores);

// The mean of the finite values (a share is NaN where there is nothing to gain); NaN if none.
double mean_of_finite(std::span<const double> values);

// The IQM of every run of every instance, pooled.
double pooled_interquartile_mean(const RunScores& scores);

// The q-quantile (0 <= q <= 1) by linear interpolation between order statistics: position
// q * (n - 1) of the sorted values (numpy's default). Throws when empty.
double quantile(std::span<const double> values, double q);

struct Interval {
  double low = 0;
  double high = 0;
};

// A percentile confidence interval of the pooled IQM by the stratified bootstrap: each of
// `resamples` draws resamples every instance's runs with replacement, keeping each instance's
// count (runs are never borrowed across instances), and takes the pooled IQM; the interval is the
// (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of those IQMs.
Interval stratified_bootstrap_iqm(const RunScores& scores, int resamples, double confidence,
                                  std::uint64_t seed);

// The same bootstrap for comparing two agents on the same instances (rliable's stratified
// independent bootstrap): each draw resamples every instance's runs of X and, independently, of Y,
// within the instance. Intervals of IQM(X) - IQM(Y) and of P(X > Y) (below). X's draws are those
// stratified_bootstrap_iqm makes for X alone under the same seed. std::invalid_argument when X and
// Y do not have the same instances.
Interval stratified_bootstrap_iqm_difference(const RunScores& x, const RunScores& y, int resamples,
                                             double confidence, std::uint64_t seed);
Interval stratified_bootstrap_probability_of_improvement(const RunScores& x, const RunScores& y,
                                                         int resamples, double confidence,
                                                         std::uint64_t seed);

// P(X > Y): for each instance, the probability that a run of X scores above a run of Y (ties
// count one half: the Mann-Whitney U statistic over the pairs of runs), averaged over instances.
// X and Y must have the same instances. Throws std::invalid_argument otherwise.
double probability_of_improvement(const RunScores& x, const RunScores& y);

// The performance profile: for each threshold, the fraction of all runs (pooled over instances)
// whose score is above it.
std::vector<double> performance_profile(const RunScores& scores,
                                        std::span<const double> thresholds);

}  // namespace memplace::experiments
