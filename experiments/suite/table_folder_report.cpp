#include "experiments/suite/table_folder_report.hpp"

#include <vector>

#include "base/atomic_file.hpp"
#include "experiments/charts/table_plots.hpp"
#include "experiments/suite/suite_table_report.hpp"
#include "experiments/table/table_references.hpp"
#include "experiments/table/table_report.hpp"

namespace memplace::experiments {

TableFolderReport write_table_folder_report(const TableRunner& runner,
                                            std::span<const CellResult> cells,
                                            std::size_t missing) {
  const TableConfig& c = runner.config();
  const std::vector<WorkloadReference> references = workload_references(c);
  const std::vector<TableRow> rows = summarize(c, cells, references);
  const std::string markdown = table_markdown(c, rows, missing, references);
  write_file_atomically(runner.folder() / "table.csv", table_csv(rows));
  write_file_atomically(runner.folder() / "timing.csv", timing_csv(rows));
  write_file_atomically(runner.folder() / "table.md", markdown);
  const auto figures = write_table_plots(runner, cells, rows);
  // A suite table leads with its aggregate report; its table.md has a column per instance.
  const SuiteReport suite =
      c.suite.empty() ? SuiteReport{} : write_suite_report(runner, cells, rows, missing);
  const bool suite_report = !suite.written.empty();
  return {suite_report ? suite.markdown : markdown,
          std::string(suite_report ? "suite.md, suite.csv, " : "") +
              "table.md, table.csv, timing.csv, " +
              std::to_string(figures.size() + (suite_report ? 2 : 0)) + " figures, runs/"};
}

}  // namespace memplace::experiments
