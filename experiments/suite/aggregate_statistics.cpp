#include "experiments/suite/aggregate_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/rng.hpp"

namespace memplace::experiments {

namespace {

// The labels of the bootstrap's random streams under the caller's seed.
constexpr std::uint64_t kBootstrapStream = 0x6273;  // "bs"

}  // namespace

std::vector<double> pooled_runs(const RunScores& scores) {
  std::vector<double> all;
  for (const std::vector<double>& runs : scores) {
    if (runs.empty()) throw std::invalid_argument("an instance without runs");
    all.insert(all.end(), runs.begin(), runs.end());
  }
  return all;
}

double mean_of_finite(std::span<const double> values) {
  double sum = 0;
  std::size_t known = 0;
  for (const double v : values)
    if (std::isfinite(v)) {
      sum += v;
      ++known;
    }
  return known == 0 ? std::nan("") : sum / static_cast<double>(known);
}

double interquartile_mean(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("interquartile mean of no values");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t cut = sorted.size() / 4;
  double sum = 0;
  for (std::size_t i = cut; i < sorted.size() - cut; ++i)
    sum += sorted[i];
  return sum / static_cast<double>(sorted.size() - 2 * cut);
}

double pooled_interquartile_mean(const RunScores& scores) {
  const std::vector<double> all = pooled_runs(scores);
  return interquartile_mean(all);
}

double quantile(std::span<const double> values, double q) {
  if (values.empty()) throw std::invalid_argument("quantile of no values");
  if (!(q >= 0 && q <= 1)) throw std::invalid_argument("quantile: q must be in [0, 1]");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

namespace {

void check_bootstrap(int resamples, double confidence) {
  if (resamples < 1) throw std::invalid_argument("bootstrap: at least one resample");
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("bootstrap: confidence must be in (0, 1)");
}

void check_same_instances(const RunScores& x, const RunScores& y) {
  if (x.size() != y.size() || x.empty())
    throw std::invalid_argument("comparing two agents: both need the same instances");
  (void)pooled_runs(x);  // no instance without runs
  (void)pooled_runs(y);
}

// Draw `r` of the bootstrap of one agent's scores (`side` 0) or of the agent it is compared with
// (`side` 1): one stream per draw and side, so a draw depends on its index only, not on what ran
// before, and side 0's draws are those of the agent's own interval.
RunScores resample(const RunScores& scores, std::uint64_t seed, int r, std::uint64_t side) {
  const auto index = static_cast<std::uint64_t>(r);
  Rng rng(side == 0 ? derive_seed(seed, {kBootstrapStream, index})
                    : derive_seed(seed, {kBootstrapStream, index, side}));
  RunScores out;
  out.reserve(scores.size());
  for (const std::vector<double>& runs : scores) {
    std::vector<double>& drawn = out.emplace_back();
    for (std::size_t i = 0; i < runs.size(); ++i)
      drawn.push_back(runs[rng.uniform(runs.size())]);
  }
  return out;
}

Interval percentile_interval(std::vector<double> statistics, double confidence) {
  return {quantile(statistics, (1 - confidence) / 2), quantile(statistics, (1 + confidence) / 2)};
}

// The interval of statistic(X*, Y*) over the draws of the independent stratified bootstrap.
template <typename Statistic>
Interval paired_bootstrap(const RunScores& x, const RunScores& y, int resamples, double confidence,
                          std::uint64_t seed, Statistic statistic) {
  check_bootstrap(resamples, confidence);
  check_same_instances(x, y);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r)
    values.push_back(statistic(resample(x, seed, r, 0), resample(y, seed, r, 1)));
  return percentile_interval(std::move(values), confidence);
}

}  // namespace

Interval stratified_bootstrap_iqm(const RunScores& scores, int resamples, double confidence,
                                  std::uint64_t seed) {
  check_bootstrap(resamples, confidence);
  (void)pooled_runs(scores);  // no instance without runs
  std::vector<double> iqms;
  iqms.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r)
    iqms.push_back(pooled_interquartile_mean(resample(scores, seed, r, 0)));
  return percentile_interval(std::move(iqms), confidence);
}

Interval stratified_bootstrap_iqm_difference(const RunScores& x, const RunScores& y, int resamples,
                                             double confidence, std::uint64_t seed) {
  return paired_bootstrap(x, y, resamples, confidence, seed, [](const auto& a, const auto& b) {
    return pooled_interquartile_mean(a) - pooled_interquartile_mean(b);
  });
}

Interval stratified_bootstrap_probability_of_improvement(const RunScores& x, const RunScores& y,
                                                         int resamples, double confidence,
                                                         std::uint64_t seed) {
  return paired_bootstrap(x, y, resamples, confidence, seed, [](const auto& a, const auto& b) {
    return probability_of_improvement(a, b);
  });
}

double probability_of_improvement(const RunScores& x, const RunScores& y) {
  if (x.size() != y.size() || x.empty())
    throw std::invalid_argument("probability of improvement: both need the same instances");
  double total = 0;
  for (std::size_t t = 0; t < x.size(); ++t) {
    if (x[t].empty() || y[t].empty()) throw std::invalid_argument("an instance without runs");
    double wins = 0;
    for (const double a : x[t])
      for (const double b : y[t])
        wins += a > b ? 1.0 : (a == b ? 0.5 : 0.0);
    total += wins / static_cast<double>(x[t].size() * y[t].size());
  }
  return total / static_cast<double>(x.size());
}

std::vector<double> performance_profile(const RunScores& scores,
                                        std::span<const double> thresholds) {
  const std::vector<double> all = pooled_runs(scores);
  std::vector<double> fractions;
  for (const double tau : thresholds) {
    const auto above = std::count_if(all.begin(), all.end(), [&](double s) { return s > tau; });
    fractions.push_back(static_cast<double>(above) / static_cast<double>(all.size()));
  }
  return fractions;
}

}  // namespace memplace::experiments
