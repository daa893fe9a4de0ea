// Everything `memplace table` writes into a table folder once its runs are done: table.md,
// table.csv, timing.csv, the figures, and for a suite table the suite report
// (experiments/suite/suite_table_report.hpp). One function, so that a table whose runs Python made
// (memplace.suite.run) gets the report `memplace table` gives for the same runs.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "experiments/table/table_runner.hpp"

namespace memplace::experiments {

struct TableFolderReport {
  std::string markdown;  // suite.md for a suite table with a suite report, else table.md
  std::string files;     // "suite.md, suite.csv, table.md, table.csv, timing.csv, 9 figures, runs/"
};

// `missing`: the table's cells without a finished run.
TableFolderReport write_table_folder_report(const TableRunner& runner,
                                            std::span<const CellResult> cells, std::size_t missing);

}  // namespace memplace::experiments
