// The report of a suite table (docs/table.md#suite-tables), written into the table folder beside
// table.md:
//
//   suite.md                 for readers: per agent the IQM of the share of the attainable gain
//                            with its 95 % interval, the probabilities of improvement, the
//                            figures, the shares per instance; then the same at equal wall time
//   suite.csv                per agent at equal evaluations (suite_scores.hpp)   } the same bytes
//   profile.csv, shares.csv  the profile and every run's share                   } whatever the
//   performance-profile.svg  the fraction of runs above each share               } jobs or ranks
//   heat-map.svg             the mean share of each agent on each instance       } that ran them
//   suite-wall-time.csv      suite.csv at equal wall time (differs between reruns, as timing.csv)
//
// At equal wall time every run is cut at its instance's time: the median wall time of every
// finished run there (all agents), and scored by the best speedup its curve had reached by then.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"

namespace memplace::experiments {

struct SuiteReport {
  std::string markdown;  // suite.md
  std::vector<std::filesystem::path> written;
};
// Writes the files above. Writes nothing (and returns no file) when no instance has runs of
// every agent yet.
SuiteReport write_suite_report(const TableRunner& runner, std::span<const CellResult> cells,
                               std::span<const TableRow> rows, std::size_t missing);

}  // namespace memplace::experiments
