// The table's figures, written into the table folder as self-contained SVG, per workload:
//
//   curves-<workload>.svg     best speedup so far against evaluations: the mean over seeds as a
//                             line and the range over seeds as a band, one colour per agent, with
//                             the best known (or optimum) and the bound as dashed lines
//   placement-<workload>.svg  where the best run's mapping puts each layer's weight and output
//                             activation, layer by layer along the schedule, against the compiler's
//   memory-<workload>.svg     each memory's use over the schedule under that mapping and the
//                             compiler's, as a share of its capacity
//
// and curves.csv, the numbers the curves show (tests check the SVGs against it).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "agents/training/trainer.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"

namespace memplace::experiments {

// A run folder's curve.csv; InputError names the file and the line of a bad row.
std::vector<agents::CurveRow> read_curve_csv(const std::filesystem::path& path);

// The learning curve of one agent on one workload over its seeds: at each x (the evaluations of
// the longest run's rows), the best speedup so far of each seed (its last row at or before x; 0
// before its first), reduced to mean, minimum and maximum.
struct AgentCurve {
  std::string workload;
  std::string agent;
  std::vector<double> evaluations;
  std::vector<double> mean;
  std::vector<double> low;
  std::vector<double> high;
};
AgentCurve combine_curves(const std::string& workload, const std::string& agent,
                          std::span<const std::vector<agents::CurveRow>> seeds);

// Writes every figure and curves.csv for the finished cells; returns the files written. `rows`
// (summarize's) give the curves their reference lines: the best known (or optimum) and the bound.
std::vector<std::filesystem::path> write_table_plots(const TableRunner& runner,
                                                     std::span<const CellResult> cells,
                                                     std::span<const TableRow> rows = {});

}  // namespace memplace::experiments
