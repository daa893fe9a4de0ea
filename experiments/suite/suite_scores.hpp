// The scores of a suite table (docs/table.md#suite-tables): every run's share of the attainable
// gain on its instance, and per agent the aggregate statistics of aggregate_statistics.hpp over
// instances x seeds: the interquartile mean with its stratified-bootstrap confidence interval, the
// probability of improvement over every other agent, and the performance profile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "experiments/suite/aggregate_statistics.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"

namespace memplace::experiments {

// The bootstrap's fixed parameters: every report draws the same resamples on every machine.
inline constexpr int kBootstrapResamples = 2000;
inline constexpr double kConfidence = 0.95;
inline constexpr std::uint64_t kBootstrapSeed = 0;

struct SuiteScores {
  std::vector<std::string> agents;     // the table's rows, in its order
  std::vector<std::string> instances;  // scored: each has runs of every agent and a gain to
                                       // share, in the table's order
  std::vector<std::string> unscored;   // the others (some agent has no finished run there, or
                                       // its best known gains under kLeastGain)
  std::vector<RunScores> shares;       // [agent][instance][run], runs in seed order
};

// A run's share of the attainable gain on its instance (share_of_gain against the row's best
// known, which includes the table's best run), of the speedup `speedup_of` gives it (its final
// best at equal evaluations); a run without a valid mapping counts a speedup of 0, as in the
// table's means: −1 / (best known − 1), below every valid mapping.
SuiteScores score_runs(const TableConfig& config, std::span<const CellResult> cells,
                       std::span<const TableRow> rows,
                       const std::function<double(const CellResult&)>& speedup_of);

struct AgentAggregate {
  std::string agent;
  std::size_t runs = 0;
  double iqm = 0;
  Interval iqm_interval;  // kConfidence, stratified bootstrap
  double mean = 0;
  double median = 0;
};

struct SuiteAggregate {
  std::vector<AgentAggregate> agents;
  std::vector<std::vector<double>> improvement;  // [a][b]: P(a > b); 0.5 on the diagonal
  std::vector<double> thresholds;                // of the profile: 0, 0.01, ..., 1
  std::vector<std::vector<double>> profiles;     // [agent][threshold]: fraction of runs above
};

// Throws std::invalid_argument when no instance is scored.
SuiteAggregate aggregate(const SuiteScores& scores);

// A share as the reports print it: "93.7 %", "—" when unknown.
std::string share_percent(double fraction);

// agent,runs,iqm,iqm_low,iqm_high,mean,median,then P(agent > other) per agent of the table.
std::string suite_csv(const SuiteAggregate& aggregate);
// threshold, then the fraction of each agent's runs above it.
std::string profile_csv(const SuiteAggregate& aggregate);
// agent,instance,run,share: every scored run (run k of a finished instance is seed k).
std::string shares_csv(const SuiteScores& scores);

}  // namespace memplace::experiments
