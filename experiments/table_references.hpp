// What there is to win on each workload of a table: its optimum (from the shipped certificates,
// env/optimum/certificate.hpp) and its capacity-free bound, as speedups over the compiler.
#pragma once

#include <vector>

#include "experiments/table_config.hpp"
#include "experiments/table_report.hpp"

namespace memplace::experiments {

// One per workload of the config, under the simulator its runs' environments build (hardware,
// memory-time rule, env version: under v1 the streaming-aware compiler and v1's bounds); the
// optimum is 0 (unknown) for a workload without a certificate for exactly that model (none under
// v1: certificates are the pinned model's).
std::vector<WorkloadReference> workload_references(const TableConfig& config);

}  // namespace memplace::experiments
