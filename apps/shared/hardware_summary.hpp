// `memplace references --summary`: one row per workload and hardware model with what placement
// can win there under both cost models — the compiler and the exact optimum of the pinned
// dynamics (v0), the streaming-aware compiler, the best known mapping and the bound of the
// streaming dynamics (v1). docs/hardware.md's table is this output.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/inputs/time.hpp"
#include "model/model_spec.hpp"

namespace memplace::cli {

struct HardwareSummaryRow {
  std::string workload;
  std::string hardware;
  double weights_per_on_chip = 0;  // weight bytes / capacity of every memory but the slowest
  TimeFs v0_compiler_fs = 0;
  std::optional<TimeFs> v0_optimum_fs;        // the certificate's mapping (the optimum if proven)
  std::optional<TimeFs> v0_optimum_bound_fs;  // the certificate's bound (equal when proven)
  TimeFs v1_compiler_fs = 0;                  // the streaming-aware compiler
  std::optional<TimeFs> v1_best_known_fs;     // the best shipped mapping
  TimeFs v1_bound_fs = 0;                     // the largest of v1's bounds
};

// The cells both reports share (`memplace references --summary` and `--suite`): a latency in µs,
// a latency with its speedup over the compiler ("742.92 (1.1145)"), and the weight bytes over the
// capacity of every memory but the slowest ("3.73x"; 0 on a chip with one memory).
std::string latency_cell(TimeFs t);
std::string latency_and_speedup_cell(TimeFs compiler, TimeFs t);
double weights_per_on_chip(const Simulator& sim);
std::string weights_per_on_chip_cell(double ratio);

// `model` gives the memory-time rule and lookahead (default: each hardware model's own); its
// workload, hardware and dynamics are the arguments' and both dynamics'.
HardwareSummaryRow summarise(const std::string& workload, const std::string& hardware,
                             const ModelSpec& model);

void print_summary(const std::vector<HardwareSummaryRow>& rows, std::ostream& out);
nlohmann::json summary_json(const std::vector<HardwareSummaryRow>& rows);

}  // namespace memplace::cli
