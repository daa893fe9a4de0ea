// The baseline table from the cells' results: per (workload, agent), the speedup over the
// compiler as mean ± standard deviation over seeds, the best and the worst seed, and the
// evaluations needed to reach 95 % of the final speedup. Written as table.csv (for scripts) and
// table.md (for readers); both are reproducible apart from their wall-time column.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "experiments/table_config.hpp"
#include "experiments/table_runner.hpp"

namespace memplace::experiments {

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
};

// One row per (workload, agent) with at least one finished seed, workloads then agents in the
// config's order.
std::vector<TableRow> summarize(const TableConfig& config, std::span<const CellResult> cells);

std::string table_csv(std::span<const TableRow> rows);
// `missing`: cells not finished yet (the table says so above the figures).
std::string table_markdown(const TableConfig& config, std::span<const TableRow> rows,
                           std::size_t missing);

}  // namespace memplace::experiments
