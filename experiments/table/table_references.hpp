// What there is to win on each workload of a table, as speedups over the compiler: the headroom
// of its model (optimum/headroom.hpp) — its optimum, the best shipped mapping, the tightest
// bound, and the trivial all-fast + rectify baseline.
#pragma once

#include <vector>

#include "experiments/table/table_config.hpp"
#include "experiments/table/table_report.hpp"

namespace memplace::experiments {

// One per workload of the config, under the simulator its runs' environments build (hardware,
// memory-time rule, env version: under v1 the streaming-aware compiler and v1's bounds); the
// optimum is 0 (unknown) for a workload without a certificate for exactly that model (none under
// v1: certificates are the pinned model's). Solves v1's capacity-aware LP (about 0.1 s on
// bert-base).
std::vector<WorkloadReference> workload_references(const TableConfig& config);
// The same for one model.
WorkloadReference workload_reference(const ModelSpec& model);

}  // namespace memplace::experiments
