// The streaming dynamics (cost model v1, docs/cost-model.md "Streaming"): the same mapping and
// validity as v0, but a DMA engine prefetches what coming layers read from slow memories into free
// space of faster ones, using only the ports' idle time.
//
// Evaluation, for a mapping:
//  1. v0's per-layer transfer times and live bytes (so peaks and validity are v0's, exactly).
//  2. The DMA plan, in order of need (reading layer, then read): a read is a candidate when its
//     home port alone is slower than the layer's compute (prefetching it can shorten the layer),
//     it is not gathered (an embedding's rows are known only at run time), and its data exists
//     before the reader (an activation from the layer just before cannot be prefetched). Its
//     buffer (the bytes read) goes to the staging memory faster than its home where it fits
//     earliest within `lookahead` layers (the longest copy window; ties: the slower memory, which
//     keeps the fastest free) and is held until the reader ends. Buffers use only free space:
//     capacity - pinned weights - live activations - earlier buffers.
//  3. The layers in schedule order. A layer reads what was copied for it from the staging memory
//     and the rest from home, unless that is slower than reading it all from home (a layer is
//     never slower than under v0). Then the DMA advances the copies in flight, in plan order, with
//     the idle time of both ports of each copy (and the layer overhead, if the hardware says the
//     DMA runs through it).
// All in integer femtoseconds: a copy's progress is counted in its home port's time, and its
// staging port's share is rounded up, so a split read never costs less than its parts.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "env/model/hardware.hpp"
#include "env/model/mapping.hpp"
#include "env/model/time.hpp"

namespace memplace {

class Simulator;
struct Evaluation;

namespace detail {

// One read the DMA may prefetch (step 2's static conditions already hold).
struct StreamRead {
  static constexpr std::uint32_t kGraphInput = UINT32_MAX;  // home: the slowest memory
  std::uint32_t tensor = kGraphInput;                       // the mapping index of its home
  std::uint32_t window_start = 0;                           // first layer a copy may be issued in
  std::int64_t bytes = 0;                                   // the buffer: the bytes read
  std::array<TimeFs, kMaxMemories> fs{};                    // time to read it from each memory
};

struct StreamingPlan {
  std::vector<std::size_t> read_offsets;  // CSR by reading layer over reads
  std::vector<StreamRead> reads;
  std::vector<std::size_t> staging;        // staging memories, fastest first
  std::vector<std::uint32_t> output_last;  // per layer: the last step its output is live
  std::size_t lookahead = 0;
  bool during_overhead = true;
};

StreamingPlan build_streaming_plan(const Simulator& sim);

// Fills `out` (latency, validity, peaks, overflow, layer times) under the streaming dynamics.
void evaluate_streaming(const Simulator& sim, const StreamingPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out);

}  // namespace detail
}  // namespace memplace
