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

const WorkloadReference* find_reference(std::span<const WorkloadReference> references,
                                        const std::string& workload) {
  for (const WorkloadReference& r : references)
    if (r.workload == workload) return &r;
  return nullptr;
}

// A CSV cell: empty when unknown.
std::string csv_number(const char* spec, double value) {
  return std::isnan(value) ? "" : format(spec, value);
}

std::string percent(double fraction, const char* spec = "%.0f %%") {
  if (std::isnan(fraction)) return "—";
  std::string text = format(spec, 100 * fraction);
  // A value that rounds to zero is shown without its sign ("0 %", not "-0 %").
  if (text[0] == '-' && text.find_first_of("123456789") == std::string::npos) text.erase(0, 1);
  return text;
}

void write_references(std::ostringstream& out, const TableConfig& config,
                      std::span<const WorkloadReference> references) {
  const bool streaming = config.env_version == "v1";
  out << "## What there is to win\n\n";
  if (streaming) {
    out << "Streaming dynamics (env version v1): speedups are over the streaming-aware compiler; "
        << "there is no exact optimum (certificates are the pinned model's), and the bound is the "
        << "largest of v1's capacity-free, slowest-port and compute bounds "
           "(docs/cost-model.md).\n\n";
  } else {
    out << "Speedups over the compiler of the best possible mapping (the exact optimum of "
        << "`memplace optimum`, docs/optimum.md) and of the capacity-free bound (capacities "
        << "ignored: no mapping reaches it). \"Share\" is (speedup − 1) / (optimum − 1): the "
        << "share of the attainable gain an agent's mean speedup gets.\n\n";
  }
  out << "| workload | optimum | " << (streaming ? "bound" : "capacity-free bound")
      << " |\n|---|---:|---:|\n";
  for (const std::string& w : config.workloads) {
    const WorkloadReference* r = find_reference(references, w);
    out << "| " << stem(w) << " | ";
    if (streaming)
      out << "none under v1";
    else if (!r || r->optimum_speedup <= 0)
      out << "unknown (`memplace optimum " << stem(w) << "`)";
    else if (r->optimum_proven)
      out << format("%.4f", r->optimum_speedup);
    else
      out << format("%.4f", r->optimum_speedup) << " best known (not proven; at most "
          << format("%.4f", r->optimum_bound_speedup) << "): shares are against it";
    out << " | "
        << (r && r->capacity_free_bound_speedup > 0 ? format("%.4f", r->capacity_free_bound_speedup)
                                                    : std::string("—"))
        << " |\n";
  }
  out << "\n";
}

}  // namespace

double share_of_gain(double speedup, double optimum_speedup) {
  // Below a gain of one part in a million the optimum is the compiler: no share to speak of.
  if (!(optimum_speedup > 1 + 1e-6)) return std::nan("");
  return (speedup - 1) / (optimum_speedup - 1);
}

std::vector<TableRow> summarize(const TableConfig& config, std::span<const CellResult> cells,
                                std::span<const WorkloadReference> references) {
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
      const WorkloadReference* reference = find_reference(references, workload);
      const double optimum = reference ? reference->optimum_speedup : 0.0;
      row.optimum_speedup = optimum > 0 ? optimum : std::nan("");
      // A row without any valid mapping has no speedup to share.
      const bool scored = optimum > 0 && row.valid_seeds > 0;
      row.share_of_gain = scored ? share_of_gain(row.mean_speedup, optimum) : std::nan("");
      row.gap_to_optimum = scored ? optimum / row.mean_speedup - 1 : std::nan("");
      rows.push_back(row);
    }
  }
  return rows;
}

std::string table_csv(std::span<const TableRow> rows) {
  std::ostringstream out;
  out << "workload,agent,seeds,valid_seeds,mean_speedup,std_speedup,best_speedup,worst_speedup,"
         "mean_evaluations_to_95,mean_evaluations,optimum_speedup,share_of_gain,gap_to_optimum,"
         "mean_wall_seconds\n";
  for (const TableRow& r : rows) {
    out << r.workload << "," << r.agent << "," << r.seeds << "," << r.valid_seeds << ","
        << format("%.6f", r.mean_speedup) << "," << format("%.6f", r.std_speedup) << ","
        << format("%.6f", r.best_speedup) << "," << format("%.6f", r.worst_speedup) << ","
        << format("%.1f", r.mean_evaluations_to_95) << "," << format("%.1f", r.mean_evaluations)
        << "," << csv_number("%.6f", r.optimum_speedup) << ","
        << csv_number("%.6f", r.share_of_gain) << "," << csv_number("%.6f", r.gap_to_optimum) << ","
        << format("%.2f", r.mean_wall_seconds) << "\n";
  }
  return out.str();
}

std::string table_markdown(const TableConfig& config, std::span<const TableRow> rows,
                           std::size_t missing, std::span<const WorkloadReference> references) {
  std::ostringstream out;
  out << "# Baseline table\n\n"
      << "Best speedup over memplace's compiler heuristic (simulated; not the NNP-I compiler), "
      << "mean ± standard deviation over " << config.seeds << " seed"
      << (config.seeds == 1 ? "" : "s") << "; " << config.budget
      << " simulator evaluations per run; hardware " << config.hardware
      << ". A run without a valid mapping counts 0. The best mean of each workload is in bold; in "
         "parentheses, the share of the attainable gain it gets (below).\n\n";
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
          << format("%.4f", r->std_speedup) << (bold ? "**" : "");
      if (!std::isnan(r->share_of_gain)) out << " (" << percent(r->share_of_gain) << ")";
      out << " |";
    }
    out << "\n";
  }

  out << "\n";
  write_references(out, config, references);
  out << "## Details\n\n"
      << "| workload | agent | seeds (valid) | mean ± std | share of attainable gain | gap to "
         "optimum | best | worst | evaluations to 95 % | wall s / run |\n"
      << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const TableRow& r : rows) {
    out << "| " << stem(r.workload) << " | " << r.agent << " | " << r.seeds << " (" << r.valid_seeds
        << ") | " << format("%.4f", r.mean_speedup) << " ± " << format("%.4f", r.std_speedup)
        << " | " << percent(r.share_of_gain) << " | " << percent(r.gap_to_optimum, "%.2f %%")
        << " | " << format("%.4f", r.best_speedup) << " | " << format("%.4f", r.worst_speedup)
        << " | "
        << (r.valid_seeds > 0 ? format("%.0f", r.mean_evaluations_to_95) : std::string("—"))
        << " | " << format("%.1f", r.mean_wall_seconds) << " |\n";
  }
  out << "\n\"Gap to optimum\": optimum / mean − 1, how much slower than the optimum the mean "
         "is. \"Evaluations to 95 %\": the mean over the valid seeds of the first point of the "
         "curve where the best speedup reached 95 % of the run's final best.\n";
  return out.str();
}

}  // namespace memplace::experiments
