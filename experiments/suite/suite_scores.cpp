#include "experiments/suite/suite_scores.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "base/number_format.hpp"

namespace memplace::experiments {
namespace {

double best_known_of(std::span<const TableRow> rows, const std::string& instance) {
  for (const TableRow& r : rows)
    if (r.workload == instance) return r.best_known_speedup;
  return std::nan("");
}

}  // namespace

SuiteScores score_runs(const TableConfig& config, std::span<const CellResult> cells,
                       std::span<const TableRow> rows,
                       const std::function<double(const CellResult&)>& speedup_of) {
  SuiteScores scores;
  scores.agents = config.agents;
  scores.shares.resize(config.agents.size());
  for (const std::string& instance : config.workloads) {
    const double best_known = best_known_of(rows, instance);
    std::vector<std::vector<double>> per_agent(config.agents.size());
    for (const CellResult& c : cells) {
      if (c.workload != instance) continue;
      const auto agent = std::find(config.agents.begin(), config.agents.end(), c.agent);
      const double speedup = speedup_of(c);
      per_agent[static_cast<std::size_t>(agent - config.agents.begin())].push_back(
          share_of_gain(speedup, best_known));
    }
    const bool every_agent = std::none_of(per_agent.begin(), per_agent.end(),
                                          [](const auto& runs) { return runs.empty(); });
    if (!every_agent || std::isnan(share_of_gain(1, best_known))) {
      scores.unscored.push_back(instance);
      continue;
    }
    scores.instances.push_back(instance);
    for (std::size_t a = 0; a < per_agent.size(); ++a)
      scores.shares[a].push_back(std::move(per_agent[a]));
  }
  return scores;
}

SuiteAggregate aggregate(const SuiteScores& scores) {
  if (scores.instances.empty())
    throw std::invalid_argument("a suite table with no scored instance");
  SuiteAggregate out;
  for (int k = 0; k <= 100; ++k)
    out.thresholds.push_back(k / 100.0);
  for (std::size_t a = 0; a < scores.agents.size(); ++a) {
    const RunScores& runs = scores.shares[a];
    const std::vector<double> all = pooled_runs(runs);
    AgentAggregate agg;
    agg.agent = scores.agents[a];
    agg.runs = all.size();
    agg.iqm = interquartile_mean(all);
    agg.iqm_interval =
        stratified_bootstrap_iqm(runs, kBootstrapResamples, kConfidence, kBootstrapSeed);
    agg.mean = mean_of_finite(all);
    agg.median = quantile(all, 0.5);
    out.agents.push_back(agg);
    out.profiles.push_back(performance_profile(runs, out.thresholds));
    std::vector<double>& row = out.improvement.emplace_back();
    for (std::size_t b = 0; b < scores.agents.size(); ++b)
      row.push_back(probability_of_improvement(runs, scores.shares[b]));
  }
  return out;
}

std::string share_percent(double fraction) {
  return std::isnan(fraction) ? "—" : format_fixed(100 * fraction, 1) + " %";
}

std::string suite_csv(const SuiteAggregate& aggregate) {
  std::ostringstream out;
  out << "agent,runs,iqm,iqm_low,iqm_high,mean,median";
  for (const AgentAggregate& other : aggregate.agents)
    out << ",p_improvement_over_" << other.agent;
  out << "\n";
  for (std::size_t a = 0; a < aggregate.agents.size(); ++a) {
    const AgentAggregate& g = aggregate.agents[a];
    out << g.agent << "," << g.runs << "," << format_fixed(g.iqm, 6) << ","
        << format_fixed(g.iqm_interval.low, 6) << "," << format_fixed(g.iqm_interval.high, 6) << ","
        << format_fixed(g.mean, 6) << "," << format_fixed(g.median, 6);
    for (const double p : aggregate.improvement[a])
      out << "," << format_fixed(p, 6);
    out << "\n";
  }
  return out.str();
}

std::string profile_csv(const SuiteAggregate& aggregate) {
  std::ostringstream out;
  out << "threshold";
  for (const AgentAggregate& g : aggregate.agents)
    out << "," << g.agent;
  out << "\n";
  for (std::size_t t = 0; t < aggregate.thresholds.size(); ++t) {
    out << format_fixed(aggregate.thresholds[t], 2);
    for (const std::vector<double>& profile : aggregate.profiles)
      out << "," << format_fixed(profile[t], 6);
    out << "\n";
  }
  return out.str();
}

std::string shares_csv(const SuiteScores& scores) {
  std::ostringstream out;
  out << "agent,instance,run,share\n";
  for (std::size_t a = 0; a < scores.agents.size(); ++a)
    for (std::size_t i = 0; i < scores.instances.size(); ++i)
      for (std::size_t r = 0; r < scores.shares[a][i].size(); ++r)
        out << scores.agents[a] << "," << scores.instances[i] << "," << r << ","
            << format_fixed(scores.shares[a][i][r], 6) << "\n";
  return out.str();
}

}  // namespace memplace::experiments
