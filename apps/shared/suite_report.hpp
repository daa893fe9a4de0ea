// `memplace references --suite`: each instance of a suite with what placement can win there under
// the suite's cost model (or another dynamics) — the compiler, the best known mapping and the bound
// — and the counts the suite promises (hard instances: the best known at least 10 % faster than the
// compiler; docs/suite.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/inputs/suite.hpp"
#include "model/inputs/time.hpp"
#include "model/simulator.hpp"

namespace memplace::cli {

// The best known mapping's speedup over the compiler from which an instance counts as hard.
inline constexpr double kHardSpeedup = 1.10;

struct SuiteRow {
  std::string instance;  // "<workload>@<hardware>"
  std::string workload;
  std::string hardware;
  Split split = Split::test;
  std::string family;
  std::size_t layers = 0;
  double weights_per_on_chip = 0;  // weight bytes / capacity of every memory but the slowest
  TimeFs compiler_fs = 0;
  std::optional<TimeFs> best_known_fs;
  TimeFs bound_fs = 0;
  std::optional<double> best_known_speedup() const;
  bool hard() const;
};

// One row per instance of `suite` in the given splits (every instance when `splits` is empty),
// in the suite's order, under `dynamics` (default: the suite's cost model's); `progress` is told
// each instance as it starts.
std::vector<SuiteRow> suite_rows(const Suite& suite, const std::vector<Split>& splits,
                                 std::ostream* progress, std::optional<Dynamics> dynamics = {});

void print_suite_rows(const Suite& suite, const std::vector<SuiteRow>& rows, std::ostream& out,
                      std::optional<Dynamics> dynamics = {});
nlohmann::json suite_json(const Suite& suite, const std::vector<SuiteRow>& rows);

}  // namespace memplace::cli
