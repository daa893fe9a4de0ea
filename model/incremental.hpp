// The incremental evaluator: a mapping held in memory, with "move one tensor" and "what if this
// tensor moved" answered in O(degree + M log N) instead of a full evaluation.
//
// It keeps, per layer, the transfer time to each memory (so moving a tensor touches only its
// layer and, for an activation, its consumers), and per memory a segment tree of live activation
// bytes over the schedule (so capacity questions over a live range are O(log N)). Latency is
// integer femtoseconds, so it always equals Simulator::evaluate exactly — under the pinned
// dynamics, which is the only one it models (a streaming simulator's latencies differ).
//
// Not thread-safe: use one evaluator per thread (they are cheap to copy).
#pragma once

#include <span>
#include <vector>

#include "model/range_max_tree.hpp"
#include "model/simulator.hpp"

namespace memplace {

class IncrementalEvaluator {
 public:
  // Starts with every tensor in the slowest memory.
  explicit IncrementalEvaluator(const Simulator& simulator);
  IncrementalEvaluator(const Simulator& simulator, std::span<const MemoryIndex> mapping);

  // Replaces the whole mapping (O(N log N)). Throws std::invalid_argument like check_mapping.
  void reset(std::span<const MemoryIndex> mapping);

  const Simulator& simulator() const { return *sim_; }
  std::span<const MemoryIndex> mapping() const { return mapping_; }
  MemoryIndex memory_of(std::size_t tensor) const { return mapping_.at(tensor); }
  TimeFs latency_fs() const { return latency_; }
  TimeFs layer_fs(std::size_t layer) const { return layer_fs_.at(layer); }
  std::span<const TimeFs> layer_times() const { return layer_fs_; }
  // Each layer's transfer time in each memory (layers x memories), as Simulator::evaluate_pinned
  // gives them.
  std::span<const TimeFs> transfer_fs() const { return acc_; }
  // Pinned weights plus peak live activations in memory m.
  std::int64_t peak_bytes(std::size_t m) const { return pinned_[m] + live_[m].max(); }
  std::int64_t overflow_bytes(std::size_t m) const;
  std::int64_t total_overflow_bytes() const;
  bool valid() const { return total_overflow_bytes() == 0; }
  // First schedule step where memory m's live activation bytes peak.
  std::size_t peak_step(std::size_t m) const { return live_[m].argmax(); }

  struct Outcome {
    TimeFs latency_fs = 0;
    bool valid = false;
    std::int64_t overflow_bytes = 0;  // summed over memories
  };
  // The outcome if `tensor` moved to memory m; the state does not change. Not const because the
  // range queries push lazy tags in the trees (the represented values stay the same).
  Outcome preview(std::size_t tensor, MemoryIndex m);
  // Only the latency of that move: O(degree * M), no capacity work.
  TimeFs preview_latency(std::size_t tensor, MemoryIndex m) const;
  // Whether memory m can hold `tensor` over its whole live range, given every other tensor where
  // it is now (the sequential environment's action mask).
  bool fits(std::size_t tensor, MemoryIndex m);
  // The same against another capacity for m (the streaming-aware compiler's reserves).
  bool fits(std::size_t tensor, MemoryIndex m, std::int64_t capacity);
  // Moves `tensor` to memory m. Throws std::out_of_range for a bad tensor or memory index.
  void move(std::size_t tensor, MemoryIndex m);

 private:
  void check(std::size_t tensor, MemoryIndex m) const;
  // Re-derives t(l) from acc_ and updates the total.
  void refresh_layer(std::size_t layer);
  // t(l) if acc_ of the layer had `delta` added: time `remove` taken from memory `from` and
  // `add` put on memory `to`.
  TimeFs layer_time_after(std::size_t layer, MemoryIndex from, TimeFs remove, MemoryIndex to,
                          TimeFs add) const;
  // Max live bytes of memory m after adding `delta` over the tensor's live range.
  std::int64_t live_max_after(std::size_t m, std::size_t first, std::size_t last,
                              std::int64_t delta);

  const Simulator* sim_;
  std::size_t num_memories_;
  Mapping mapping_;
  std::vector<TimeFs> acc_;  // layer x memory: transfer time of the layer in each memory
  std::vector<TimeFs> layer_fs_;
  TimeFs latency_ = 0;
  std::vector<std::int64_t> pinned_;  // per memory: weight bytes
  std::vector<RangeMaxTree> live_;    // per memory: live activation bytes per step
};

}  // namespace memplace
