// Reference mappings (docs/cost-model.md): the points every result is measured against.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"

namespace memplace {

// Every tensor in the slowest memory (all-DRAM on NNP-I).
Mapping all_slowest_mapping(const Simulator& sim);

// The native-compiler stand-in of the pinned dynamics: a production-style greedy allocator.
// Starting from all-slowest, each tensor's benefit is the (pinned) latency saved by moving it alone
// to the fastest memory; tensors with a positive benefit are visited by benefit per byte,
// descending (ties: lower tensor id), and each goes to the fastest memory where it fits over its
// whole live range, within `capacities` (default: the hardware's). Valid whenever the all-slowest
// mapping is.
Mapping pinned_compiler_mapping(const Simulator& sim,
                                std::span<const std::int64_t> capacities = {});

// The addressed dynamics' compiler (cost model v2): the same order, and each tensor goes to the
// fastest memory where a best-fit address range (the narrowest free gap it fits, ties to the lower)
// stays free over its live range below `capacities` — XLA's memory-space assignment gives values
// offsets with a best-fit heap in the same way. Its tensors have addresses by construction.
Mapping addressed_compiler_mapping(const Simulator& sim,
                                   std::span<const std::int64_t> capacities = {});

// The staging reserves the streaming-aware compiler tries: fractions of each staging memory's
// capacity kept free for the DMA.
inline constexpr std::array<double, 5> kStagingReserves = {0, 0.125, 0.25, 0.5, 0.75};

// A compiler that places within given capacities (the two above).
using CapacityCompiler = Mapping (*)(const Simulator&, std::span<const std::int64_t>);
// `compile` run with every combination of reserves (kStagingReserves per staging memory; with
// more than three staging memories, one fraction for all) taken from the staging memories'
// capacities, each result scored under the simulator's dynamics, the fastest kept (ties: the
// first in that order, which starts with no reserve); with `require_valid`, only valid results
// (all-slowest if none is) — a simple stand-in for what compilers with memory-space assignment do.
Mapping best_over_reserves(const Simulator& sim, CapacityCompiler compile, bool require_valid);

// The compiler every speedup is over: the simulator's dynamics' (DynamicsModel::compiler_mapping).
// Pinned: the greedy above. Streaming: best_over_reserves of the greedy. Addressed:
// best_over_reserves of addressed_compiler_mapping, valid results only (the evaluation's allocator
// must find addresses too).
Mapping compiler_mapping(const Simulator& sim);

// A latency no mapping can beat under any dynamics: capacities ignored, and each layer's
// traffic at the best rate any split of its tensors could reach (bytes / sum of all bandwidths
// under `max`, bytes / the fastest bandwidth under `sum`), rounded down. A layer's reads are
// counted in it under streaming too (a prefetched read is read from the staging memory).
TimeFs lower_bound_fs(const Simulator& sim);

// The slowest port's bound: the bytes that cross the slowest memory whatever the mapping (graph
// inputs; tensors that fit in no faster memory, for every read and write of them), at its
// bandwidth, rounded down. A prefetch moves them across the same port, so it holds under
// streaming.
TimeFs slowest_port_bound_fs(const Simulator& sim);
// Compute alone: the sum over layers of compute time and overhead.
TimeFs compute_bound_fs(const Simulator& sim);
// The largest of the three bounds above: the reference bound of the dynamics with a DMA.
TimeFs dma_lower_bound_fs(const Simulator& sim);

struct ReferenceLatencies {
  TimeFs all_slowest_fs = 0;
  TimeFs compiler_fs = 0;     // compiler_mapping: the streaming-aware compiler under streaming
  TimeFs lower_bound_fs = 0;  // the dynamics' (pinned: lower_bound_fs; with a DMA: the largest)
};
ReferenceLatencies reference_latencies(const Simulator& sim);

// Speedup of a mapping over the compiler mapping: latency(compiler) / latency(mapping).
inline double speedup(TimeFs compiler_fs, TimeFs mapping_fs) {
  return static_cast<double>(compiler_fs) / static_cast<double>(mapping_fs);
}

}  // namespace memplace
