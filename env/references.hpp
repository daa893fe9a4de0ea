// Reference mappings (docs/cost-model.md): the points every result is measured against.
#pragma once

#include "env/mapping.hpp"
#include "env/simulator.hpp"

namespace memplace {

// Every tensor in the slowest memory (all-DRAM on NNP-I).
Mapping all_slowest_mapping(const Simulator& sim);

// The native-compiler stand-in: a production-style greedy allocator. Starting from all-slowest,
// each tensor's benefit is the latency saved by moving it alone to the fastest memory; tensors
// with a positive benefit are visited by benefit per byte, descending (ties: lower tensor id), and
// each goes to the fastest memory where it fits over its whole live range. Valid whenever the
// all-slowest mapping is.
Mapping compiler_mapping(const Simulator& sim);

// A latency no mapping can beat: capacities ignored, and each layer's traffic at the best rate
// any split of its tensors could reach (bytes / sum of all bandwidths under `max`, bytes / the
// fastest bandwidth under `sum`), rounded down.
TimeFs lower_bound_fs(const Simulator& sim);

struct ReferenceLatencies {
  TimeFs all_slowest_fs = 0;
  TimeFs compiler_fs = 0;
  TimeFs lower_bound_fs = 0;
};
ReferenceLatencies reference_latencies(const Simulator& sim);

// Speedup of a mapping over the compiler mapping: latency(compiler) / latency(mapping).
inline double speedup(TimeFs compiler_fs, TimeFs mapping_fs) {
  return static_cast<double>(compiler_fs) / static_cast<double>(mapping_fs);
}

}  // namespace memplace
