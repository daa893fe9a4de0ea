// The generalization track's reports (experiments/generalization/generalization.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "base/markdown_table.hpp"
#include "base/number_format.hpp"
#include "experiments/generalization/generalization.hpp"
#include "experiments/suite/aggregate_statistics.hpp"
#include "experiments/suite/suite_scores.hpp"
#include "experiments/table/table_report.hpp"

namespace memplace::experiments {
namespace {

constexpr auto Right = MarkdownTable::Align::right;

std::vector<double> shares(const std::vector<double>& speedups, double best_known) {
  std::vector<double> out;
  for (const double s : speedups)
    out.push_back(share_of_gain(s, best_known));
  return out;
}

// The three ways of placing a test instance, as run scores per instance.
struct Placements {
  RunScores all_fast, zero_shot, fine_tuned, scratch, pretrained;
  std::size_t reached = 0, pairs = 0;
  std::vector<double> evaluations_to_scratch;  // of the pairs that reached it
};

Placements placements(const std::vector<GeneralizationRow>& rows) {
  Placements p;
  for (const GeneralizationRow& row : rows) {
    if (std::isnan(share_of_gain(1, row.best_known))) continue;  // nothing to gain there
    p.all_fast.push_back({share_of_gain(row.all_fast_rectified, row.best_known)});
    p.zero_shot.push_back({share_of_gain(row.zero_shot_speedup, row.best_known)});
    p.fine_tuned.push_back(shares(row.fine_tuned, row.best_known));
    p.scratch.push_back(shares(row.scratch, row.best_known));
    if (!row.pretrained.empty()) p.pretrained.push_back(shares(row.pretrained, row.best_known));
    for (const auto& reached : row.evaluations_to_scratch) {
      ++p.pairs;
      if (reached) {
        ++p.reached;
        p.evaluations_to_scratch.push_back(static_cast<double>(*reached));
      }
    }
  }
  return p;
}

std::string iqm_cell(const RunScores& scores) {
  if (scores.empty()) return "—";
  // One run per instance (zero-shot placements): resampling within instances changes nothing.
  if (std::all_of(scores.begin(), scores.end(), [](const auto& runs) { return runs.size() == 1; }))
    return share_percent(pooled_interquartile_mean(scores)) +
           " (one run per instance: no interval)";
  const Interval ci =
      stratified_bootstrap_iqm(scores, kBootstrapResamples, kConfidence, kBootstrapSeed);
  return share_percent(pooled_interquartile_mean(scores)) + " [" + share_percent(ci.low) + ", " +
         share_percent(ci.high) + "]";
}

std::vector<std::string> agents_of(const GeneralizationReport& report) {
  std::vector<std::string> agents;
  for (const GeneralizationRow& row : report.rows)
    if (std::find(agents.begin(), agents.end(), row.agent) == agents.end())
      agents.push_back(row.agent);
  return agents;
}

std::vector<GeneralizationRow> rows_of(const GeneralizationReport& report, const std::string& agent,
                                       const std::string& chip = {}) {
  std::vector<GeneralizationRow> out;
  for (const GeneralizationRow& row : report.rows)
    if (row.agent == agent && (chip.empty() || row.chip == chip)) out.push_back(row);
  return out;
}

std::string reached_cell(const Placements& p, std::uint64_t k) {
  std::string text = std::to_string(p.reached) + " of " + std::to_string(p.pairs);
  if (!p.evaluations_to_scratch.empty())
    text += ", median " + format_fixed(quantile(p.evaluations_to_scratch, 0.5), 0) + " (saves " +
            format_fixed(static_cast<double>(k) - quantile(p.evaluations_to_scratch, 0.5), 0) + ")";
  return text;
}

}  // namespace

std::string generalization_markdown(const GeneralizationConfig& config,
                                    const GeneralizationReport& report) {
  std::ostringstream out;
  out << "# Generalization track: suite " << config.suite << "\n\n";
  if (config.policies.empty())
    out << "Per agent and chip, one policy trained on the suite's dev instances on that chip and "
           "on "
        << config.procedural.size() << " procedural workloads (" << config.rounds << " round"
        << (config.rounds == 1 ? "" : "s") << " of " << config.train_budget << " evaluations each)";
  else
    out << "Per agent and chip, the policy " << config.policies
        << "/<agent>-<chip>.gnn (trained before, its runs reading the node features its spec "
           "names)";
  out << ", then every test instance on that chip placed **zero-shot** (the "
         "policy's greedy mapping, rectified where it overflows: one evaluation), **fine-tuned** "
         "(a run of "
      << config.k << " evaluations from the policy"
      << (config.init_temperature == 1
              ? std::string()
              : ", its logits divided by " + format_significant(config.init_temperature, 6))
      << ") and from **scratch** (the same run from the "
      << "usual initialisation), over " << config.seeds << " seed" << (config.seeds == 1 ? "" : "s")
      << ". Shares of the attainable gain, (speedup − 1) / (best known − 1), the best known being "
         "the shipped mapping's or the best placement here; IQM over instances × seeds with its "
         "95 % stratified-bootstrap interval (docs/table.md#suite-tables); P(fine-tuned > "
         "scratch) and the difference of the IQMs (in points of share) with the 95 % interval of "
         "the same bootstrap, each side's runs resampled within each instance.\n\n";
  const bool pretrained = !report.predictor_r2.empty();
  // P(x > y) and IQM(x) - IQM(y), each with its interval (the stratified independent bootstrap).
  auto comparable = [](const RunScores& x, const RunScores& y) {
    return !x.empty() && x.size() == y.size();
  };
  auto improvement = [&](const RunScores& x, const RunScores& y) {
    if (!comparable(x, y)) return std::string("—");
    const Interval ci = stratified_bootstrap_probability_of_improvement(
        x, y, kBootstrapResamples, kConfidence, kBootstrapSeed);
    return format_fixed(probability_of_improvement(x, y), 2) + " [" + format_fixed(ci.low, 2) +
           ", " + format_fixed(ci.high, 2) + "]";
  };
  auto points = [](double share) { return format_fixed(100 * share, 1); };
  auto difference = [&](const RunScores& x, const RunScores& y) {
    if (!comparable(x, y)) return std::string("—");
    const Interval ci =
        stratified_bootstrap_iqm_difference(x, y, kBootstrapResamples, kConfidence, kBootstrapSeed);
    const double d = pooled_interquartile_mean(x) - pooled_interquartile_mean(y);
    return (d > 0 ? "+" : "") + points(d) + " [" + points(ci.low) + ", " + points(ci.high) + "]";
  };
  const std::string k = std::to_string(config.k);
  std::vector<MarkdownTable::Column> columns = {{"agent"},
                                                {"zero-shot (1 evaluation)", Right},
                                                {"fine-tuned (" + k + ")", Right},
                                                {"scratch (" + k + ")", Right},
                                                {"P(fine-tuned > scratch)", Right},
                                                {"fine-tuned − scratch (IQM, points)", Right},
                                                {"fine-tuned reached scratch's final best", Right}};
  if (pretrained) {
    columns.push_back({"from the reward predictor (" + k + ")", Right});
    columns.push_back({"P(predictor > scratch)", Right});
  }
  MarkdownTable table(std::move(columns));
  for (const std::string& agent : agents_of(report)) {
    const Placements p = placements(rows_of(report, agent));
    std::vector<std::string> cells = {agent,
                                      iqm_cell(p.zero_shot),
                                      iqm_cell(p.fine_tuned),
                                      iqm_cell(p.scratch),
                                      improvement(p.fine_tuned, p.scratch),
                                      difference(p.fine_tuned, p.scratch),
                                      reached_cell(p, config.k)};
    if (pretrained) {
      cells.push_back(iqm_cell(p.pretrained));
      cells.push_back(improvement(p.pretrained, p.scratch));
    }
    table.add_row(std::move(cells));
  }
  // The baseline is the same for every agent: scored once per instance.
  const std::vector<std::string> agents = agents_of(report);
  std::vector<std::string> baseline(pretrained ? 9 : 7);
  baseline[0] = "*all-fast + rectify*";
  baseline[1] =
      agents.empty() ? "—" : iqm_cell(placements(rows_of(report, agents.front())).all_fast);
  table.add_row(std::move(baseline));
  out << table.str();
  if (pretrained) {
    out << "\nThe reward predictors (experiments/generalization/reward_prediction.hpp, "
        << config.pretrain_steps
        << " steps of 32 mappings) explain this share of the variance of fresh mappings' rewards "
           "(held-out R²):";
    for (const auto& [chip, r2] : report.predictor_r2)
      out << " " << chip << " " << format_fixed(r2, 2) << ";";
    out << "\n";
  }
  out << "\n\"Reached\": of the (instance, seed) pairs, those whose fine-tuned run reached the "
         "scratch run's final best within "
      << config.k
      << " evaluations, and the median evaluations it took (what it saved against the scratch "
         "run's "
      << config.k << ").\n\n## Per chip (mean shares)\n\n";
  MarkdownTable per_chip({{"agent"},
                          {"chip"},
                          {"test instances", Right},
                          {"zero-shot", Right},
                          {"fine-tuned", Right},
                          {"scratch", Right},
                          {"reached", Right}});
  for (const std::string& agent : agents_of(report))
    for (const std::string& chip : config.chips) {
      const std::vector<GeneralizationRow> rows = rows_of(report, agent, chip);
      if (rows.empty()) continue;
      const Placements p = placements(rows);
      auto pooled_mean = [](const RunScores& s) { return mean_of_finite(pooled_runs(s)); };
      per_chip.add_row({agent, chip, std::to_string(rows.size()),
                        share_percent(pooled_mean(p.zero_shot)),
                        share_percent(pooled_mean(p.fine_tuned)),
                        share_percent(pooled_mean(p.scratch)), reached_cell(p, config.k)});
    }
  out << per_chip.str() << "\n## Per instance (mean shares over seeds)\n\n";
  std::vector<MarkdownTable::Column> instance_columns = {{"agent"},
                                                         {"instance"},
                                                         {"best known", Right},
                                                         {"all-fast + rectify", Right},
                                                         {"zero-shot", Right},
                                                         {"fine-tuned", Right},
                                                         {"scratch", Right}};
  if (pretrained) instance_columns.push_back({"from the reward predictor", Right});
  MarkdownTable per_instance(std::move(instance_columns));
  for (const GeneralizationRow& row : report.rows) {
    std::vector<std::string> cells = {
        row.agent,
        row.instance,
        format_fixed(row.best_known, 4) + "x",
        share_percent(share_of_gain(row.all_fast_rectified, row.best_known)),
        share_percent(share_of_gain(row.zero_shot_speedup, row.best_known)) +
            (row.zero_shot_valid ? "" : " (rectified)"),
        share_percent(mean_of_finite(shares(row.fine_tuned, row.best_known))),
        share_percent(mean_of_finite(shares(row.scratch, row.best_known)))};
    if (pretrained)
      cells.push_back(share_percent(mean_of_finite(shares(row.pretrained, row.best_known))));
    per_instance.add_row(std::move(cells));
  }
  out << per_instance.str();
  out << "\n## Across hardware (zero-shot, mean share over the test instances)\n\n"
      << "A policy trained on the row's chip placing the column's test instances; its choices of "
         "memory carried over by rank where the chips have different numbers of memories "
         "(experiments/generalization/transfer.hpp).\n\n";
  for (const std::string& agent : agents_of(report)) {
    std::vector<MarkdownTable::Column> columns = {{agent + ": trained on \\ placed on"}};
    for (const std::string& chip : config.chips)
      columns.push_back({chip, Right});
    MarkdownTable across(std::move(columns));
    for (const std::string& from : config.chips) {
      std::vector<std::string> cells = {from};
      for (const std::string& to : config.chips) {
        const auto cell = std::find_if(
            report.cross_hardware.begin(), report.cross_hardware.end(), [&](const auto& c) {
              return c.agent == agent && c.trained_on == from && c.placed_on == to;
            });
        cells.push_back(cell == report.cross_hardware.end()
                            ? std::string("—")
                            : share_percent(mean_of_finite(cell->shares)));
      }
      across.add_row(std::move(cells));
    }
    out << across.str();
    out << "\n";
  }
  return out.str();
}

std::string generalization_csv(const GeneralizationReport& report) {
  std::ostringstream out;
  out << "agent,chip,instance,best_known_speedup,zero_shot_valid,zero_shot_speedup,seed,"
         "fine_tuned_speedup,scratch_speedup,evaluations_to_scratch,pretrained_speedup\n";
  for (const GeneralizationRow& row : report.rows)
    for (std::size_t s = 0; s < row.fine_tuned.size(); ++s)
      out << row.agent << "," << row.chip << "," << row.instance << ","
          << format_fixed(row.best_known, 6) << "," << (row.zero_shot_valid ? "true" : "false")
          << "," << format_fixed(row.zero_shot_speedup, 6) << "," << s << ","
          << format_fixed(row.fine_tuned[s], 6) << "," << format_fixed(row.scratch[s], 6) << ","
          << (row.evaluations_to_scratch[s] ? std::to_string(*row.evaluations_to_scratch[s]) : "")
          << "," << (row.pretrained.empty() ? "" : format_fixed(row.pretrained[s], 6)) << "\n";
  return out.str();
}

std::string cross_hardware_csv(const GeneralizationReport& report) {
  std::ostringstream out;
  out << "agent,trained_on,placed_on,instances,mean_share\n";
  for (const CrossHardwareCell& cell : report.cross_hardware)
    out << cell.agent << "," << cell.trained_on << "," << cell.placed_on << ","
        << cell.shares.size() << "," << format_fixed(mean_of_finite(cell.shares), 6) << "\n";
  return out.str();
}

}  // namespace memplace::experiments
