// What there is to win on each workload of a table: its optimum (from the shipped certificates,
// env/optimum/certificate.hpp) and its capacity-free bound, as speedups over the compiler.
#pragma once

#include <vector>

#include "experiments/table_config.hpp"
#include "experiments/table_report.hpp"

namespace memplace::experiments {

// One per workload of the config, under its hardware and memory-time rule; the optimum is 0
// (unknown) for a workload without a certificate for exactly that model.
std::vector<WorkloadReference> workload_references(const TableConfig& config);

}  // namespace memplace::experiments
