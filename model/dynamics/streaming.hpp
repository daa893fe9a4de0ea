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

#include "model/dynamics/evaluation_kernels.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"

namespace memplace {

class Simulator;
struct Evaluation;

namespace detail {

// One read the DMA may prefetch (step 2's static conditions already hold).
struct StreamRead {
  static constexpr std::uint32_t kGraphInput = UINT32_MAX;  // home: the slowest memory
  std::uint32_t tensor = kGraphInput;                       // the mapping index of its home
  std::uint32_t reader = 0;                                 // the layer that reads it
  std::uint32_t window_start = 0;                           // first layer a copy may be issued in
  std::int64_t bytes = 0;                                   // the buffer: the bytes read
  std::array<TimeFs, kMaxMemories> fs{};                    // time to read it from each memory
};

struct StreamingPlan : DynamicsPlan {
  EvaluationPlan pinned;                  // step 1: v0's evaluation
  std::vector<std::size_t> read_offsets;  // CSR by reading layer over reads
  std::vector<StreamRead> reads;
  std::vector<std::size_t> staging;  // staging memories, fastest first
  std::array<std::size_t, kMaxMemories>
      slot_of{};                           // memory -> its index in staging, or staging.size()
  std::vector<std::uint32_t> output_last;  // per layer: the last step its output is live
  std::size_t lookahead = 0;
  std::size_t log_stride = 1;  // layers in a copy's window at most: min(lookahead, layers) + 1
  bool during_overhead = true;

  bool dma_possible() const { return !staging.empty() && !reads.empty(); }
};

StreamingPlan build_streaming_plan(const Simulator& sim);

// The staging port's time for `done` of a copy's home-port time: done * stage / home, rounded up
// (what a copy's step charges the staging port).
TimeFs stage_share(TimeFs done, TimeFs stage_fs, TimeFs home_fs);

// A planned copy: a buffer of `bytes` in memory `stage`, held from the start of layer `issue` to
// the end of layer `reader`, filled from memory `home`.
struct Copy {
  std::uint32_t reader = 0;
  std::uint32_t issue = 0;
  std::uint8_t home = 0;
  std::uint8_t stage = 0;
  std::int64_t bytes = 0;
  TimeFs home_fs = 0;   // the whole read from home
  TimeFs stage_fs = 0;  // the whole read from the staging memory
  TimeFs done = 0;      // home-port time copied so far

  // The same decision of the plan, whatever the progress.
  bool same_plan(const Copy& o) const {
    return reader == o.reader && issue == o.issue && home == o.home && stage == o.stage &&
           bytes == o.bytes && home_fs == o.home_fs && stage_fs == o.stage_fs;
  }
};

// The DMA's working state for one mapping: the full evaluation keeps one per thread, the
// incremental evaluator (model/dynamics/incremental_streaming.hpp) one between moves.
struct DmaState {
  std::vector<std::int64_t> used;         // staging slot x step: pinned + live + buffers
  std::vector<std::uint32_t> held;        // per step: buffers held (copies in flight or being read)
  std::vector<Copy> copies;               // in plan order: by reader, then read
  std::vector<std::int64_t> delta;        // scratch: live activation bytes as changes per step
  std::vector<std::int64_t> in_use;       // scratch: the pinned evaluation's bytes in use
  std::vector<std::uint32_t> candidates;  // scratch: the reads worth planning
};

// Step 1's bytes in use in each staging memory at each step (no buffers yet); no copies.
void start_dma(const Simulator& sim, const StreamingPlan& plan,
               std::span<const MemoryIndex> mapping, DmaState& state);
// Step 1 together with v0's evaluation: `out` gets v0's result, `loads` v0's per-layer,
// per-memory transfer times (layers x memories), `state` what start_dma gives, the bytes in use
// taken from the evaluation's own sweep.
void evaluate_pinned_and_start_dma(const Simulator& sim, const StreamingPlan& plan,
                                   std::span<const MemoryIndex> mapping, Evaluation& out,
                                   std::vector<TimeFs>& loads, DmaState& state);
// Step 2 for the reads of layers `from` onwards: appends their copies and holds their buffers.
// `loads` are v0's per-layer, per-memory transfer times (layers x memories).
void plan_copies(const Simulator& sim, const StreamingPlan& plan,
                 std::span<const MemoryIndex> mapping, const TimeFs* loads, std::size_t from,
                 DmaState& state);
// Step 3 for layers `from` onwards, every copy's `done` as at the start of layer `from`.
// `layer_fs` holds v0's layer times on entry and v1's on return; returns the time saved.
TimeFs run_layers(const Simulator& sim, const StreamingPlan& plan, const TimeFs* loads,
                  std::size_t from, DmaState& state, TimeFs* layer_fs);

// The incremental evaluator's re-run of step 3: v0's layer times in `v0_fs`, v1's written to
// `layer_fs` for the layers it runs. It also logs (copies x plan.log_stride) each copy's `done` at
// the start of every layer of its window (at entry layer - issue), to restart from later; and it
// stops at the first layer from `resync_from` on where every copy in flight has the progress the
// log holds from the previous run (returned; the number of layers if none), leaving the later
// layer times as they were. The caller guarantees that from `resync_from` on the loads are the
// previous run's and so are the copies read (their log rows moved to their new index).
std::size_t rerun_layers(const Simulator& sim, const StreamingPlan& plan, const TimeFs* loads,
                         std::size_t from, DmaState& state, const TimeFs* v0_fs, TimeFs* layer_fs,
                         TimeFs* log, std::size_t resync_from);

// Fills `out` (latency, validity, peaks, overflow, layer times) under the streaming dynamics.
void evaluate_streaming(const Simulator& sim, const StreamingPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out);

}  // namespace detail

// The plan of a simulator whose dynamics runs a DMA (std::invalid_argument naming the dynamics
// otherwise).
const detail::StreamingPlan& streaming_plan(const Simulator& sim);

}  // namespace memplace
