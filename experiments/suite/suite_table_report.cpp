#include "experiments/suite/suite_table_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "agents/training/run_folder.hpp"
#include "base/atomic_file.hpp"
#include "base/markdown_table.hpp"
#include "base/number_format.hpp"
#include "experiments/charts/svg_chart.hpp"
#include "experiments/charts/table_plots.hpp"
#include "experiments/suite/suite_scores.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;
constexpr auto Right = MarkdownTable::Align::right;

// Per instance: the median wall time of its finished runs, every agent's.
std::map<std::string, double> equal_times(std::span<const CellResult> cells) {
  std::map<std::string, std::vector<double>> walls;
  for (const CellResult& c : cells)
    walls[c.workload].push_back(c.wall_seconds);
  std::map<std::string, double> times;
  for (const auto& [instance, values] : walls)
    times[instance] = quantile(values, 0.5);
  return times;
}

// The best speedup each run had reached by its instance's time, from its curve.
std::map<const CellResult*, double> speedups_at_times(const TableRunner& runner,
                                                      std::span<const CellResult> cells,
                                                      const std::map<std::string, double>& times) {
  std::map<const CellResult*, double> speedups;
  for (const CellResult& c : cells) {
    const std::vector<agents::CurveRow> curve =
        read_curve_csv(agents::RunFolder{runner.cell_folder(c.agent, c.workload, c.seed)}.curve());
    double best = 0;
    for (const agents::CurveRow& row : curve)
      if (row.wall_seconds <= times.at(c.workload)) best = row.best_speedup;
    speedups[&c] = best;
  }
  return speedups;
}

std::string profile_svg(const SuiteAggregate& aggregate, const std::string& title) {
  LineChart chart;
  chart.title = title;
  chart.x_label = "share of the attainable gain";
  chart.y_label = "fraction of runs above it";
  for (std::size_t a = 0; a < aggregate.agents.size(); ++a)
    chart.series.push_back(
        {aggregate.agents[a].agent, aggregate.thresholds, aggregate.profiles[a], {}, {}, false});
  chart.y_min = 0;
  chart.y_max = 1;
  return render_line_chart(chart);
}

std::string heat_map_svg(const SuiteScores& scores, const std::string& title) {
  HeatMap map;
  map.title = title;
  map.row_labels = scores.agents;
  map.column_labels = scores.instances;
  for (const RunScores& agent : scores.shares) {
    std::vector<double>& row = map.values.emplace_back();
    for (const std::vector<double>& runs : agent)
      row.push_back(mean_of_finite(runs));
  }
  return render_heat_map(map);
}

void write_aggregate_table(std::ostringstream& out, const SuiteAggregate& aggregate) {
  MarkdownTable table({{"agent"},
                       {"IQM of the share [95 % CI]", Right},
                       {"mean", Right},
                       {"median", Right},
                       {"runs", Right}});
  std::vector<std::size_t> order(aggregate.agents.size());
  for (std::size_t a = 0; a < order.size(); ++a)
    order[a] = a;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return aggregate.agents[a].iqm > aggregate.agents[b].iqm;
  });
  for (const std::size_t a : order) {
    const AgentAggregate& g = aggregate.agents[a];
    const bool best = g.iqm == aggregate.agents[order.front()].iqm;
    const std::string bold = best ? "**" : "";
    table.add_row({g.agent,
                   bold + share_percent(g.iqm) + bold + " [" + share_percent(g.iqm_interval.low) +
                       ", " + share_percent(g.iqm_interval.high) + "]",
                   share_percent(g.mean), share_percent(g.median), std::to_string(g.runs)});
  }
  out << table.str() << "\n";
}

void write_improvement_table(std::ostringstream& out, const SuiteAggregate& aggregate) {
  std::vector<MarkdownTable::Column> columns = {{"P(row > column)"}};
  for (const AgentAggregate& g : aggregate.agents)
    columns.push_back({g.agent, Right});
  MarkdownTable table(std::move(columns));
  for (std::size_t a = 0; a < aggregate.agents.size(); ++a) {
    std::vector<std::string> cells = {aggregate.agents[a].agent};
    for (std::size_t b = 0; b < aggregate.agents.size(); ++b)
      cells.push_back(a == b ? std::string("—") : format_fixed(aggregate.improvement[a][b], 2));
    table.add_row(std::move(cells));
  }
  out << table.str() << "\n";
}

void write_instance_table(std::ostringstream& out, const SuiteScores& scores,
                          std::span<const TableRow> rows) {
  std::vector<MarkdownTable::Column> columns = {{"instance"}, {"best known", Right}};
  for (const std::string& agent : scores.agents)
    columns.push_back({agent, Right});
  MarkdownTable table(std::move(columns));
  for (std::size_t i = 0; i < scores.instances.size(); ++i) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const TableRow& r) {
      return r.workload == scores.instances[i];
    });
    std::vector<std::string> cells = {
        scores.instances[i],
        row != rows.end() ? format_fixed(row->best_known_speedup, 4) + "x" : std::string("—")};
    for (std::size_t a = 0; a < scores.agents.size(); ++a)
      cells.push_back(share_percent(mean_of_finite(scores.shares[a][i])));
    table.add_row(std::move(cells));
  }
  out << table.str() << "\n";
}

std::string suite_markdown(const TableConfig& config, std::size_t missing,
                           std::span<const TableRow> rows, const SuiteScores& at_evaluations,
                           const SuiteAggregate& evaluations_aggregate, const SuiteScores& at_time,
                           const SuiteAggregate& time_aggregate,
                           const std::map<std::string, double>& times) {
  std::ostringstream out;
  out << "# Suite table: suite " << config.suite << ", " << split_name(config.split) << " split\n\n"
      << config.agents.size() << " agents on " << at_evaluations.instances.size() << " instances x "
      << config.seeds << " seed" << (config.seeds == 1 ? "" : "s") << ", " << config.budget
      << " simulator evaluations per run, env version " << version_name(config.env_version)
      << ". Every run is scored by its **share of the attainable gain** on its instance, "
         "(speedup − 1) / (best known − 1), where the best known is the best of the mapping "
         "memplace ships for the instance and of this table's runs (a run without a valid mapping "
         "counts a speedup of 0, below every valid one). Per agent, over instances x seeds: the "
         "interquartile mean "
         "(IQM) with its 95 % stratified-bootstrap interval ("
      << kBootstrapResamples
      << " resamples), the mean and the median (definitions: docs/table.md#suite-tables).\n\n";
  if (missing > 0)
    out << "**Incomplete: " << missing << " run" << (missing == 1 ? " is" : "s are")
        << " not finished; rerun `memplace table` to complete them.**\n\n";
  if (!at_evaluations.unscored.empty()) {
    out << "Not scored (an agent without a finished run there, or nothing to gain):";
    for (const std::string& instance : at_evaluations.unscored)
      out << " " << instance;
    out << ".\n\n";
  }
  out << "## At equal simulator evaluations (" << config.budget << " per run)\n\n";
  write_aggregate_table(out, evaluations_aggregate);
  out << "![performance profile](performance-profile.svg)\n\n"
      << "### Probability of improvement\n\n"
      << "The probability that a run of the row's agent scores above a run of the column's on the "
         "same instance (ties count one half), averaged over the instances.\n\n";
  write_improvement_table(out, evaluations_aggregate);
  out << "### Per instance: mean share over seeds\n\n![heat map](heat-map.svg)\n\n";
  write_instance_table(out, at_evaluations, rows);
  out << "## At equal wall time\n\n"
         "Every run cut at its instance's time, the median wall time of every run there (all "
         "agents; one thread per run), and scored by the best speedup it had reached by then "
         "(agents that finish sooner keep their final result). Wall times differ between "
         "machines and reruns, and so does this section.\n\n";
  write_aggregate_table(out, time_aggregate);
  MarkdownTable cut({{"instance"}, {"time", Right}});
  for (const std::string& instance : at_time.instances)
    cut.add_row({instance, format_significant(times.at(instance), 3) + " s"});
  out << cut.str() << "\n";
  return out.str();
}

}  // namespace

SuiteReport write_suite_report(const TableRunner& runner, std::span<const CellResult> cells,
                               std::span<const TableRow> rows, std::size_t missing) {
  const TableConfig& config = runner.config();
  const SuiteScores at_evaluations = score_runs(
      config, cells, rows, [](const CellResult& c) { return c.found_valid ? c.best_speedup : 0; });
  if (at_evaluations.instances.empty()) return {};
  const SuiteAggregate evaluations_aggregate = aggregate(at_evaluations);
  const std::map<std::string, double> times = equal_times(cells);
  const std::map<const CellResult*, double> timed = speedups_at_times(runner, cells, times);
  const SuiteScores at_time =
      score_runs(config, cells, rows, [&](const CellResult& c) { return timed.at(&c); });
  const SuiteAggregate time_aggregate = aggregate(at_time);

  const std::string name = "suite " + config.suite + " (" + std::string(split_name(config.split)) +
                           "), " + std::to_string(config.budget) + " evaluations";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"suite.md", suite_markdown(config, missing, rows, at_evaluations, evaluations_aggregate,
                                  at_time, time_aggregate, times)},
      {"suite.csv", suite_csv(evaluations_aggregate)},
      {"profile.csv", profile_csv(evaluations_aggregate)},
      {"shares.csv", shares_csv(at_evaluations)},
      {"performance-profile.svg",
       profile_svg(evaluations_aggregate, "Performance profile on " + name)},
      {"heat-map.svg", heat_map_svg(at_evaluations, "Mean share of the attainable gain, " + name)},
      {"suite-wall-time.csv", suite_csv(time_aggregate)},
  };
  SuiteReport report{files.front().second, {}};
  for (const auto& [file, text] : files) {
    report.written.push_back(runner.folder() / file);
    write_file_atomically(report.written.back(), text);
  }
  return report;
}

}  // namespace memplace::experiments
