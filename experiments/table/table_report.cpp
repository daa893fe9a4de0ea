#include "experiments/table/table_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "base/markdown_table.hpp"
#include "base/number_format.hpp"
#include "optimum/certificate.hpp"

namespace memplace::experiments {
namespace {

constexpr auto Right = MarkdownTable::Align::right;

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
std::string csv_number(double value, int decimals) {
  return std::isnan(value) ? "" : format_fixed(value, decimals);
}

std::string percent(double fraction, int decimals = 0) {
  if (std::isnan(fraction)) return "—";
  std::string text = format_fixed(100 * fraction, decimals) + " %";
  // A value that rounds to zero is shown without its sign ("0 %", not "-0 %").
  if (text[0] == '-' && text.find_first_of("123456789") == std::string::npos) text.erase(0, 1);
  return text;
}

// The best speedup of any run of the table on `workload` (0 if none).
double best_in_table(std::span<const TableRow> rows, const std::string& workload) {
  double best = 0;
  for (const TableRow& row : rows)
    if (row.workload == workload) best = std::max(best, row.best_speedup);
  return best;
}

void write_references(std::ostringstream& out, const TableConfig& config,
                      std::span<const TableRow> rows,
                      std::span<const WorkloadReference> references) {
  out << "## What there is to win\n\n";
  if (config.env_version != ModelVersion::v0) {
    out << (config.env_version == ModelVersion::v1
                ? "Streaming dynamics (env version v1): speedups are over the streaming-aware "
                  "compiler. "
                : "Addressed dynamics (env version v2): speedups are over the addressed compiler "
                  "(best-fit offsets); v1's bounds hold. ")
        << "There is no exact optimum (certificates are the pinned model's): \"best known\" is the "
           "best of the mappings memplace ships for the workload (workloads/best-known/ and the "
           "certificates, each re-scored by this simulator) and of this table's runs, and "
           "\"Share\" is (speedup − 1) / (best known − 1). The bound is the tightest memplace has: "
           "the capacity-aware LP and v1's capacity-free, slowest-port and compute bounds "
           "(docs/optimum.md); no mapping beats it, and (speedup − 1) / (bound − 1) is a floor on "
           "the true share.\n\n";
    MarkdownTable table({{"workload"}, {"best known", Right}, {"found by"}, {"bound", Right}});
    for (const std::string& w : config.workloads) {
      const WorkloadReference* r = find_reference(references, w);
      const double table_best = best_in_table(rows, w);
      const double shipped = r ? r->best_known_speedup : 0.0;
      table.add_row(
          {workload_label(w),
           std::max(shipped, table_best) > 0 ? format_fixed(std::max(shipped, table_best), 4)
                                             : std::string("—"),
           table_best > shipped ? std::string("this table")
           : shipped > 0        ? "`" + r->best_known_source + "`"
                                : std::string("—"),
           r && r->bound_speedup > 0 ? format_fixed(r->bound_speedup, 4) : std::string("—")});
    }
    out << table.str() << "\n";
    return;
  }
  out << "Speedups over the compiler of the best possible mapping (the exact optimum of "
      << "`memplace optimum`, docs/optimum.md) and of the capacity-free bound (capacities "
      << "ignored: no mapping reaches it). \"Share\" is (speedup − 1) / (optimum − 1): the "
      << "share of the attainable gain an agent's mean speedup gets.\n\n";
  MarkdownTable table({{"workload"}, {"optimum", Right}, {"capacity-free bound", Right}});
  for (const std::string& w : config.workloads) {
    const WorkloadReference* r = find_reference(references, w);
    std::string optimum;
    if (!r || r->optimum_speedup <= 0)
      optimum = "unknown (`" + optimum::optimum_command(config.model_of(w)) + "`)";
    else if (r->optimum_proven)
      optimum = format_fixed(r->optimum_speedup, 4);
    else
      optimum = format_fixed(r->optimum_speedup, 4) + " best known (not proven; at most " +
                format_fixed(r->optimum_bound_speedup, 4) + "): shares are against it";
    table.add_row({workload_label(w), optimum,
                   r && r->capacity_free_bound_speedup > 0
                       ? format_fixed(r->capacity_free_bound_speedup, 4)
                       : std::string("—")});
  }
  out << table.str() << "\n";
}

// The reference rows under the agents': what every agent should beat, and what there is to win.
void write_reference_rows(std::ostringstream& out, const TableConfig& config,
                          std::span<const TableRow> rows,
                          std::span<const WorkloadReference> references) {
  const auto row = [&](const char* label, auto cell) {
    out << "| *" << label << "* |";
    for (const std::string& w : config.workloads) {
      const WorkloadReference* r = find_reference(references, w);
      out << " "
          << (r ? cell(*r, attainable_speedup(*r, best_in_table(rows, w))) : std::string("—"))
          << " |";
    }
    out << "\n";
  };
  row("compiler", [](const WorkloadReference&, double) { return std::string("1.0000"); });
  row("all-fast + rectify", [](const WorkloadReference& r, double attainable) {
    if (r.all_fast_rectified_speedup <= 0) return std::string("none valid");
    const double share = share_of_gain(r.all_fast_rectified_speedup, attainable);
    return format_fixed(r.all_fast_rectified_speedup, 4) +
           (std::isnan(share) ? "" : " (" + percent(share) + ")");
  });
  row("best known", [](const WorkloadReference& r, double attainable) {
    if (!(attainable > 0)) return std::string("—");
    return format_fixed(attainable, 4) +
           (r.optimum_proven && attainable == r.optimum_speedup ? " (optimum)" : "");
  });
  row("bound", [](const WorkloadReference& r, double) {
    return r.bound_speedup > 0 ? format_fixed(r.bound_speedup, 4) : std::string("—");
  });
}

}  // namespace

double share_of_gain(double speedup, double optimum_speedup) {
  // Below a gain of 0.1 % there is nothing to win: a share of it would only magnify noise (an
  // agent 1 % below the compiler would get "-10000 %" of a 0.01 % gain).
  if (!(optimum_speedup > 1 + kLeastGain)) return std::nan("");
  return (speedup - 1) / (optimum_speedup - 1);
}

double attainable_speedup(const WorkloadReference& reference, double best_in_table) {
  if (reference.optimum_proven && reference.optimum_speedup > 0) return reference.optimum_speedup;
  return std::max({reference.optimum_speedup, reference.best_known_speedup, best_in_table});
}

namespace {

// Fills each row's reference columns: the attainable speedup (the proven optimum, else the best
// known, including the best run of this table on the workload) and the bound.
void score_against_references(std::vector<TableRow>& rows,
                              std::span<const WorkloadReference> references) {
  for (TableRow& row : rows) {
    const WorkloadReference* reference = find_reference(references, row.workload);
    row.optimum_speedup =
        reference && reference->optimum_speedup > 0 ? reference->optimum_speedup : std::nan("");
    const double table_best = best_in_table(rows, row.workload);
    const double attainable = reference ? attainable_speedup(*reference, table_best) : table_best;
    row.best_known_speedup = attainable > 0 ? attainable : std::nan("");
    row.best_known_is_optimum =
        reference && reference->optimum_proven && reference->optimum_speedup > 0;
    row.bound_speedup =
        reference && reference->bound_speedup > 0 ? reference->bound_speedup : std::nan("");
    // A row without any valid mapping has no speedup to share.
    const bool scored = row.valid_seeds > 0;
    row.share_of_gain = scored ? share_of_gain(row.mean_speedup, attainable) : std::nan("");
    row.gap_to_optimum =
        scored && attainable > 0 ? attainable / row.mean_speedup - 1 : std::nan("");
    row.share_of_bound_gain =
        scored ? share_of_gain(row.mean_speedup, row.bound_speedup) : std::nan("");
  }
}

}  // namespace

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
      rows.push_back(row);
    }
  }
  score_against_references(rows, references);
  return rows;
}

std::string table_csv(std::span<const TableRow> rows) {
  std::ostringstream out;
  out << "workload,agent,seeds,valid_seeds,mean_speedup,std_speedup,best_speedup,worst_speedup,"
         "mean_evaluations_to_95,mean_evaluations,optimum_speedup,share_of_gain,gap_to_optimum,"
         "best_known_speedup,bound_speedup,share_of_bound_gain\n";
  for (const TableRow& r : rows) {
    out << r.workload << "," << r.agent << "," << r.seeds << "," << r.valid_seeds << ","
        << format_fixed(r.mean_speedup, 6) << "," << format_fixed(r.std_speedup, 6) << ","
        << format_fixed(r.best_speedup, 6) << "," << format_fixed(r.worst_speedup, 6) << ","
        << format_fixed(r.mean_evaluations_to_95, 1) << "," << format_fixed(r.mean_evaluations, 1)
        << "," << csv_number(r.optimum_speedup, 6) << "," << csv_number(r.share_of_gain, 6) << ","
        << csv_number(r.gap_to_optimum, 6) << "," << csv_number(r.best_known_speedup, 6) << ","
        << csv_number(r.bound_speedup, 6) << "," << csv_number(r.share_of_bound_gain, 6) << "\n";
  }
  return out.str();
}

std::string timing_csv(std::span<const TableRow> rows) {
  std::ostringstream out;
  out << "workload,agent,seeds,mean_wall_seconds\n";
  for (const TableRow& r : rows)
    out << r.workload << "," << r.agent << "," << r.seeds << ","
        << format_fixed(r.mean_wall_seconds, 2) << "\n";
  return out.str();
}

std::string table_markdown(const TableConfig& config, std::span<const TableRow> rows,
                           std::size_t missing, std::span<const WorkloadReference> references) {
  std::ostringstream out;
  out << "# Baseline table\n\n"
      << "Best speedup over memplace's compiler heuristic (simulated; not a vendor's compiler), "
      << "mean ± standard deviation over " << config.seeds << " seed"
      << (config.seeds == 1 ? "" : "s") << "; " << config.budget
      << " simulator evaluations per run; hardware "
      << (config.suite.empty() ? config.model.hardware : "each suite instance's own")
      << ". A run without a valid mapping counts 0. The best mean of each workload is in bold; in "
         "parentheses, the share of the attainable gain it gets (below).\n\n";
  if (missing > 0)
    out << "**Incomplete: " << missing << " run" << (missing == 1 ? " is" : "s are")
        << " not finished; rerun `memplace table` to complete them.**\n\n";

  std::vector<MarkdownTable::Column> columns = {{"agent"}};
  for (const std::string& w : config.workloads)
    columns.push_back({workload_label(w), Right});
  MarkdownTable table(std::move(columns));
  for (const std::string& agent : config.agents) {
    std::vector<std::string> cells = {agent};
    for (const std::string& w : config.workloads) {
      const TableRow* r = find_row(rows, w, agent);
      if (!r) {
        cells.push_back("…");
        continue;
      }
      double best_mean = 0;
      for (const TableRow& other : rows)
        if (other.workload == w) best_mean = std::max(best_mean, other.mean_speedup);
      if (r->valid_seeds == 0) {
        cells.push_back("none valid");
        continue;
      }
      const std::string bold = r->mean_speedup == best_mean ? "**" : "";
      std::string cell =
          bold + format_fixed(r->mean_speedup, 4) + " ± " + format_fixed(r->std_speedup, 4) + bold;
      if (!std::isnan(r->share_of_gain)) cell += " (" + percent(r->share_of_gain) + ")";
      cells.push_back(cell);
    }
    table.add_row(std::move(cells));
  }
  out << table.str();

  write_reference_rows(out, config, rows, references);
  out << "\n";
  write_references(out, config, rows, references);
  out << "## Details\n\n";
  MarkdownTable details({{"workload"},
                         {"agent"},
                         {"seeds (valid)", Right},
                         {"mean ± std", Right},
                         {"share of attainable gain", Right},
                         {"gap to best known", Right},
                         {"share of bound gain", Right},
                         {"best", Right},
                         {"worst", Right},
                         {"evaluations to 95 %", Right},
                         {"wall s / run", Right}});
  for (const TableRow& r : rows) {
    details.add_row(
        {workload_label(r.workload), r.agent,
         std::to_string(r.seeds) + " (" + std::to_string(r.valid_seeds) + ")",
         format_fixed(r.mean_speedup, 4) + " ± " + format_fixed(r.std_speedup, 4),
         percent(r.share_of_gain), percent(r.gap_to_optimum, 2), percent(r.share_of_bound_gain),
         format_fixed(r.best_speedup, 4), format_fixed(r.worst_speedup, 4),
         r.valid_seeds > 0 ? format_fixed(r.mean_evaluations_to_95, 0) : std::string("—"),
         format_fixed(r.mean_wall_seconds, 1)});
  }
  out << details.str();
  out << "\n\"Gap to best known\": best known (the optimum where proven) / mean − 1, how much "
         "slower than the best there is the mean is. \"Share of bound gain\": (mean − 1) / "
         "(bound − 1), a floor on the share of the attainable gain. \"Evaluations to 95 %\": the "
         "mean over the valid seeds of the first point of the "
         "curve where the best speedup reached 95 % of the run's final best.\n";
  return out.str();
}

}  // namespace memplace::experiments
