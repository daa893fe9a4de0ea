#include "experiments/table_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace memplace::experiments {
namespace {

std::string format(const char* spec, double value) {
  char text[64];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

std::string stem(const std::string& workload) {
  return std::filesystem::path(workload).stem().string();
}

const TableRow* find_row(std::span<const TableRow> rows, const std::string& workload,
                         const std::string& agent) {
  for (const TableRow& r : rows)
    if (r.workload == workload && r.agent == agent) return &r;
  return nullptr;
}

}  // namespace

std::vector<TableRow> summarize(const TableConfig& config, std::span<const CellResult> cells) {
  std::vector<TableRow> rows;
  for (const std::string& workload : config.workloads) {
    for (const std::string& agent : config.agents) {
      TableRow row;
      row.workload = workload;
      row.agent = agent;
      std::vector<double> speedups;
      double evaluations_to_95 = 0, evaluations = 0, wall = 0;
      for (const CellResult& c : cells) {
        if (c.workload != workload || c.agent != agent) continue;
        speedups.push_back(c.found_valid ? c.best_speedup : 0.0);
        evaluations += static_cast<double>(c.evaluations);
        wall += c.wall_seconds;
        if (c.found_valid) {
          ++row.valid_seeds;
          evaluations_to_95 += static_cast<double>(c.evaluations_to_95);
        }
      }
      if (speedups.empty()) continue;
      const auto n = static_cast<double>(speedups.size());
      row.seeds = speedups.size();
      double sum = 0;
      for (double s : speedups)
        sum += s;
      row.mean_speedup = sum / n;
      double squares = 0;
      for (double s : speedups)
        squares += (s - row.mean_speedup) * (s - row.mean_speedup);
      row.std_speedup = speedups.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
      row.best_speedup = *std::max_element(speedups.begin(), speedups.end());
      row.worst_speedup = *std::min_element(speedups.begin(), speedups.end());
      row.mean_evaluations_to_95 =
          row.valid_seeds > 0 ? evaluations_to_95 / static_cast<double>(row.valid_seeds) : 0.0;
      row.mean_evaluations = evaluations / n;
      row.mean_wall_seconds = wall / n;
      rows.push_back(row);
    }
  }
  return rows;
}

std::string table_csv(std::span<const TableRow> rows) {
  std::ostringstream out;
  out << "workload,agent,seeds,valid_seeds,mean_speedup,std_speedup,best_speedup,worst_speedup,"
         "mean_evaluations_to_95,mean_evaluations,mean_wall_seconds\n";
  for (const TableRow& r : rows) {
    out << r.workload << "," << r.agent << "," << r.seeds << "," << r.valid_seeds << ","
        << format("%.6f", r.mean_speedup) << "," << format("%.6f", r.std_speedup) << ","
        << format("%.6f", r.best_speedup) << "," << format("%.6f", r.worst_speedup) << ","
        << format("%.1f", r.mean_evaluations_to_95) << "," << format("%.1f", r.mean_evaluations)
        << "," << format("%.2f", r.mean_wall_seconds) << "\n";
  }
  return out.str();
}

std::string table_markdown(const TableConfig& config, std::span<const TableRow> rows,
                           std::size_t missing) {
  std::ostringstream out;
  out << "# Baseline table\n\n"
      << "Best speedup over memplace's compiler heuristic (simulated; not the NNP-I compiler), "
      << "mean ± standard deviation over " << config.seeds << " seed"
      << (config.seeds == 1 ? "" : "s") << "; " << config.budget
      << " simulator evaluations per run; hardware " << config.hardware
      << ". A run without a valid mapping counts 0. The best mean of each workload is in bold.\n\n";
  if (missing > 0)
    out << "**Incomplete: " << missing << " run" << (missing == 1 ? " is" : "s are")
        << " not finished; rerun `memplace table` to complete them.**\n\n";

  out << "| agent |";
  for (const std::string& w : config.workloads)
    out << " " << stem(w) << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < config.workloads.size(); ++i)
    out << "---:|";
  out << "\n";
  for (const std::string& agent : config.agents) {
    out << "| " << agent << " |";
    for (const std::string& w : config.workloads) {
      const TableRow* r = find_row(rows, w, agent);
      if (!r) {
        out << " … |";
        continue;
      }
      double best_mean = 0;
      for (const TableRow& other : rows)
        if (other.workload == w) best_mean = std::max(best_mean, other.mean_speedup);
      if (r->valid_seeds == 0) {
        out << " none valid |";
        continue;
      }
      const bool bold = r->mean_speedup == best_mean;
      out << " " << (bold ? "**" : "") << format("%.4f", r->mean_speedup) << " ± "
          << format("%.4f", r->std_speedup) << (bold ? "**" : "") << " |";
    }
    out << "\n";
  }

  out << "\n## Details\n\n"
      << "| workload | agent | seeds (valid) | mean ± std | best | worst | evaluations to 95 % | "
         "wall s / run |\n"
      << "|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (const TableRow& r : rows) {
    out << "| " << stem(r.workload) << " | " << r.agent << " | " << r.seeds << " (" << r.valid_seeds
        << ") | " << format("%.4f", r.mean_speedup) << " ± " << format("%.4f", r.std_speedup)
        << " | " << format("%.4f", r.best_speedup) << " | " << format("%.4f", r.worst_speedup)
        << " | "
        << (r.valid_seeds > 0 ? format("%.0f", r.mean_evaluations_to_95) : std::string("—"))
        << " | " << format("%.1f", r.mean_wall_seconds) << " |\n";
  }
  out << "\n\"Evaluations to 95 %\": the mean over the valid seeds of the first point of the "
         "curve where the best speedup reached 95 % of the run's final best.\n";
  return out.str();
}

}  // namespace memplace::experiments
