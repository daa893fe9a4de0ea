// The baseline table from the cells' results: per (workload, agent), the speedup over the
// compiler as mean ± standard deviation over seeds, the share of the attainable gain (against the
// workload's optimum), the best and the worst seed, and the evaluations needed to reach 95 % of
// the final speedup. Written as table.csv (for scripts; reproducible byte for byte, whatever the
// jobs or ranks that ran it), timing.csv (the wall times, which differ between reruns) and
// table.md (for readers; reproducible apart from its wall-time column).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "experiments/table/table_config.hpp"
#include "experiments/table/table_runner.hpp"

namespace memplace::experiments {

// What can be won on one workload of the table (speedups over the compiler; 0 when unknown).
struct WorkloadReference {
  std::string workload;        // as in the config
  double optimum_speedup = 0;  // the proven optimum, or the best-known mapping of an unproven
                               // certificate (optimum/certificate.hpp); 0 under v1
  bool optimum_proven = false;
  double optimum_bound_speedup = 0;  // the certificate's bound: no mapping does better
  double capacity_free_bound_speedup = 0;
  // The best mapping memplace ships for this workload and hardware, scored under the table's
  // simulator (optimum/best_known.hpp; 0 if none), and where it comes from.
  double best_known_speedup = 0;
  std::string best_known_source;
  // The tightest bound memplace has for the table's model: the certificate's (v0), else the
  // largest of the reference bounds and, under v1, the capacity-aware LP.
  double bound_speedup = 0;
  // Every tensor in the fastest memory, then rectified: the trivial baseline every agent must beat.
  double all_fast_rectified_speedup = 0;
};

// (speedup − 1) / (optimum − 1): the share of what the optimum gains over the compiler that a
// speedup gets (1 at the optimum, 0 at the compiler, negative below it). NaN when the optimum is
// unknown or gains less than kLeastGain.
inline constexpr double kLeastGain = 1e-3;
double share_of_gain(double speedup, double optimum_speedup);
// What an agent can gain on a workload: the proven optimum, else the best of the certificate's
// best known, the shipped best-known mapping and `best_in_table` (the table's best run there).
double attainable_speedup(const WorkloadReference& reference, double best_in_table);

struct TableRow {
  std::string workload;
  std::string agent;
  std::size_t seeds = 0;        // finished runs
  std::size_t valid_seeds = 0;  // of them, those that found a valid mapping
  // Over every finished seed, a run without a valid mapping counting 0.
  double mean_speedup = 0;
  double std_speedup = 0;  // sample standard deviation (0 for one seed)
  double best_speedup = 0;
  double worst_speedup = 0;
  double mean_evaluations_to_95 = 0;  // over the valid seeds
  double mean_evaluations = 0;        // spent (greedy-dp may stop early)
  double mean_wall_seconds = 0;
  // Against the workload's references (NaN when it has none). The attainable gain is the proven
  // optimum's where there is one, else the best known: the best of the shipped mapping and of
  // every run of this table on the workload.
  double optimum_speedup = 0;  // proven or certificate's best known (v0 only)
  double best_known_speedup = 0;
  bool best_known_is_optimum = false;  // proven
  double share_of_gain = 0;            // of the mean speedup, against the attainable gain
  double gap_to_optimum = 0;  // attainable / mean − 1: how much slower than the best there is
  double bound_speedup = 0;
  double share_of_bound_gain = 0;  // (mean − 1) / (bound − 1): a floor on the true share
};

// One row per (workload, agent) with at least one finished seed, workloads then agents in the
// config's order. `references`: per workload (any order), for the share of the attainable gain.
std::vector<TableRow> summarize(const TableConfig& config, std::span<const CellResult> cells,
                                std::span<const WorkloadReference> references = {});

std::string table_csv(std::span<const TableRow> rows);
// Per row, the mean wall time of a run.
std::string timing_csv(std::span<const TableRow> rows);
// `missing`: cells not finished yet (the table says so above the figures).
std::string table_markdown(const TableConfig& config, std::span<const TableRow> rows,
                           std::size_t missing, std::span<const WorkloadReference> references = {});

}  // namespace memplace::experiments
