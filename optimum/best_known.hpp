// The best mapping memplace ships for a simulator's workload and hardware, scored by that
// simulator: the optimum certificates (under any memory-time rule) and the best-known mappings of
// the streaming dynamics (workloads/best-known/, which has no exact optimum), whichever is fastest
// under the simulator's own model. Every candidate is re-scored, never trusted: a mapping found
// under other dynamics or another lookahead is still a real mapping of this model, only perhaps
// not the best one (docs/table.md, "What there is to win").
#pragma once

#include <optional>
#include <string>

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"

namespace memplace::optimum {

struct KnownMapping {
  Mapping mapping;
  TimeFs latency_fs = 0;  // under the simulator it was looked up for
  std::string source;     // the shipped file: "workloads/best-known/bert-base.nnpi.yaml"
};

// The fastest valid shipped mapping of this workload on this hardware, if any.
std::optional<KnownMapping> best_shipped_mapping(const Simulator& sim);

}  // namespace memplace::optimum
