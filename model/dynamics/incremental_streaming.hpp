// The incremental evaluator for every dynamics, as its DynamicsModel::move_evaluation says: the
// pinned one (model/incremental.hpp); under the streaming dynamics, also the DMA's state between
// moves, so that moving one tensor re-plans and re-runs only what the move can change; under any
// other (the addressed dynamics), a full evaluation after each move. Latencies and validity equal
// Simulator::evaluate exactly.
//
// Moving tensor t changes v0's transfer times of t's producer and readers only, and the bytes in
// use of its old and new memory over its live range (a weight: the whole schedule). So a move
//  1. re-plans the copies of the layers from the first step whose bytes in use changed (an
//     activation: its producer; a weight moving into or out of a staging memory: layer 0);
//  2. compares the new copies with the old: before the first difference the decisions are the
//     same, so are their buffers and, before they are read, their progress;
//  3. re-runs the layers from r = min(first layer whose v0 loads changed, earliest issue of a
//     changed copy), each kept copy resuming the progress it had logged at the start of r.
// Under the pinned dynamics it is the pinned evaluator and nothing more.
//
// Not thread-safe: use one evaluator per thread (they are cheap to copy).
#pragma once

#include <span>
#include <vector>

#include "model/dynamics/streaming.hpp"
#include "model/incremental.hpp"
#include "model/simulator.hpp"

namespace memplace {

class IncrementalStreamingEvaluator {
 public:
  // Starts with every tensor in the slowest memory.
  explicit IncrementalStreamingEvaluator(const Simulator& simulator);
  IncrementalStreamingEvaluator(const Simulator& simulator, std::span<const MemoryIndex> mapping);

  // Replaces the whole mapping (a full evaluation). Throws like Simulator::check_mapping.
  void reset(std::span<const MemoryIndex> mapping);
  // Moves `tensor` to memory m. Throws std::out_of_range for a bad tensor or memory index.
  void move(std::size_t tensor, MemoryIndex m);

  const Simulator& simulator() const { return pinned_.simulator(); }
  std::span<const MemoryIndex> mapping() const { return pinned_.mapping(); }
  // Under the simulator's dynamics.
  TimeFs latency_fs() const {
    return mode_ == MoveEvaluation::pinned ? pinned_.latency_fs() : latency_;
  }
  TimeFs layer_fs(std::size_t layer) const {
    return mode_ == MoveEvaluation::pinned ? pinned_.layer_fs(layer) : layer_fs_.at(layer);
  }
  bool valid() const { return mode_ == MoveEvaluation::full ? full_.valid : pinned_.valid(); }
  // Bytes in use are the same under every dynamics (buffers only take free space): the pinned
  // evaluator answers peaks and whether a tensor's bytes fit (not whether it gets an address).
  const IncrementalEvaluator& pinned() const { return pinned_; }
  bool fits(std::size_t tensor, MemoryIndex m) { return pinned_.fits(tensor, m); }
  // The first layer the last move (or reset) ran again: the layers before it kept their times.
  // (Under the pinned dynamics and in full evaluations: 0.)
  std::size_t last_rerun_from() const { return last_rerun_from_; }

 private:
  // Bytes in use (without buffers) of memory m change by `bytes` over steps [first, last], if m
  // is a staging memory; returns whether it is.
  bool add_used(MemoryIndex m, std::size_t first, std::size_t last, std::int64_t bytes);
  // After a move whose v0 loads changed in layers loads_first..loads_last: re-plans the copies of
  // readers from `plan_from` on and re-runs the layers the changes reach.
  void update(std::size_t plan_from, std::size_t loads_first, std::size_t loads_last);
  // MoveEvaluation::full: the simulator's evaluation of the whole mapping.
  void evaluate_in_full();

  IncrementalEvaluator pinned_;
  MoveEvaluation mode_;  // pinned also under streaming when no read can be copied
  const detail::StreamingPlan* plan_ = nullptr;  // MoveEvaluation::dma only
  Evaluation full_;                              // MoveEvaluation::full only
  detail::DmaState dma_;
  std::vector<std::int64_t> base_used_;  // staging slot x step: pinned + live (no buffers)
  std::vector<TimeFs> log_;              // copies x plan.log_stride: progress at each layer's start
  std::vector<TimeFs> layer_fs_;         // v1 layer times (full: the dynamics')
  TimeFs latency_ = 0;                   // v1 latency (full: the dynamics')
  std::vector<detail::Copy> replaced_;   // scratch: the copies a move re-planned
  std::size_t last_rerun_from_ = 0;
};

}  // namespace memplace
