#include "model/dynamics/incremental_streaming.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace memplace {

IncrementalStreamingEvaluator::IncrementalStreamingEvaluator(const Simulator& simulator)
    : IncrementalStreamingEvaluator(simulator,
                                    uniform_mapping(simulator.num_layers(), simulator.slowest())) {}

IncrementalStreamingEvaluator::IncrementalStreamingEvaluator(const Simulator& simulator,
                                                             std::span<const MemoryIndex> mapping)
    : pinned_(simulator, mapping), mode_(simulator.dynamics_model().move_evaluation()) {
  // Without a read the DMA could copy, v1 is v0.
  if (mode_ == MoveEvaluation::dma) {
    plan_ = &streaming_plan(simulator);
    if (!plan_->dma_possible()) mode_ = MoveEvaluation::pinned;
  }
  reset(mapping);
}

void IncrementalStreamingEvaluator::reset(std::span<const MemoryIndex> mapping) {
  pinned_.reset(mapping);
  last_rerun_from_ = 0;
  if (mode_ == MoveEvaluation::full) return evaluate_in_full();
  if (mode_ == MoveEvaluation::pinned) return;
  const Simulator& sim = simulator();
  detail::start_dma(sim, *plan_, pinned_.mapping(), dma_);
  base_used_ = dma_.used;
  detail::plan_copies(sim, *plan_, pinned_.mapping(), pinned_.transfer_fs().data(), 0, dma_);
  log_.resize(dma_.copies.size() * plan_->log_stride);
  layer_fs_.resize(sim.num_layers());
  detail::rerun_layers(sim, *plan_, pinned_.transfer_fs().data(), 0, dma_,
                       pinned_.layer_times().data(), layer_fs_.data(), log_.data(),
                       sim.num_layers());
  latency_ = std::accumulate(layer_fs_.begin(), layer_fs_.end(), TimeFs{0});
}

void IncrementalStreamingEvaluator::evaluate_in_full() {
  simulator().evaluate(pinned_.mapping(), full_);
  layer_fs_ = full_.layer_fs;
  latency_ = full_.latency_fs;
}

bool IncrementalStreamingEvaluator::add_used(MemoryIndex m, std::size_t first, std::size_t last,
                                             std::int64_t bytes) {
  const std::size_t slot = plan_->slot_of[m], n = simulator().num_layers();
  if (slot == plan_->staging.size() || bytes == 0) return false;
  std::int64_t* used = &base_used_[slot * n];
  for (std::size_t step = first; step <= last; ++step)
    used[step] += bytes;
  return true;
}

void IncrementalStreamingEvaluator::move(std::size_t tensor, MemoryIndex m) {
  const MemoryIndex from = pinned_.memory_of(tensor);  // throws for a bad tensor
  pinned_.move(tensor, m);                             // throws for a bad memory
  if (mode_ == MoveEvaluation::full) return evaluate_in_full();
  if (mode_ == MoveEvaluation::pinned || from == m) return;
  const Simulator& sim = simulator();
  const std::size_t layer = tensor_layer(tensor);
  const std::int64_t bytes = sim.tensor_bytes(tensor);
  // v0's loads change in the tensor's layer (its producer) and, for an activation, its readers.
  if (tensor_kind(tensor) == TensorKind::weight) {
    const std::size_t last = sim.num_layers() - 1;
    const bool freed = add_used(from, 0, last, -bytes);  // both must run: no || between them
    const bool taken = add_used(m, 0, last, bytes);
    update(freed || taken ? 0 : layer, layer, layer);
  } else {
    const std::size_t last = plan_->output_last[layer];
    add_used(from, layer, last, -bytes);
    add_used(m, layer, last, bytes);
    update(layer, layer, last);
  }
}

void IncrementalStreamingEvaluator::update(std::size_t plan_from, std::size_t loads_first,
                                           std::size_t loads_last) {
  const Simulator& sim = simulator();
  const std::size_t stride = plan_->log_stride;
  std::vector<detail::Copy>& copies = dma_.copies;

  // 1. Plan the copies of readers from plan_from on again.
  const auto keep = static_cast<std::size_t>(
      std::partition_point(copies.begin(), copies.end(),
                           [&](const detail::Copy& c) { return c.reader < plan_from; }) -
      copies.begin());
  replaced_.assign(copies.begin() + static_cast<std::ptrdiff_t>(keep), copies.end());
  copies.resize(keep);
  // Bytes in use and buffers held from the first step a re-planned copy could hold: no copy of a
  // reader from plan_from on is issued before plan_from - lookahead.
  const std::size_t n = sim.num_layers();
  const std::size_t start = plan_from > plan_->lookahead ? plan_from - plan_->lookahead : 0;
  for (std::size_t slot = 0; slot < plan_->staging.size(); ++slot) {
    std::copy(base_used_.begin() + static_cast<std::ptrdiff_t>(slot * n + start),
              base_used_.begin() + static_cast<std::ptrdiff_t>((slot + 1) * n),
              dma_.used.begin() + static_cast<std::ptrdiff_t>(slot * n + start));
  }
  std::fill(dma_.held.begin() + static_cast<std::ptrdiff_t>(start), dma_.held.end(), 0);
  for (std::size_t i = keep; i-- > 0 && copies[i].reader >= start;) {
    const detail::Copy& c = copies[i];
    std::int64_t* used = &dma_.used[plan_->slot_of[c.stage] * n];
    for (std::size_t step = std::max<std::size_t>(c.issue, start); step <= c.reader; ++step) {
      used[step] += c.bytes;
      ++dma_.held[step];
    }
  }
  detail::plan_copies(sim, *plan_, pinned_.mapping(), pinned_.transfer_fs().data(), plan_from,
                      dma_);
  const std::size_t planned = copies.size() - keep, old = replaced_.size();

  // 2. The copies that changed: between the longest common prefix and suffix of old and new.
  std::size_t same = 0;
  while (same < planned && same < old && copies[keep + same].same_plan(replaced_[same]))
    ++same;
  std::size_t tail = 0;
  while (tail < planned - same && tail < old - same &&
         copies[keep + planned - 1 - tail].same_plan(replaced_[old - 1 - tail]))
    ++tail;
  // No changed copy is issued before the earliest issue among them, nor read after the last read
  // (so every copy read from resync_from on is unchanged: copies are in reader order).
  std::size_t rerun_from = loads_first, resync_from = loads_last + 1;
  auto changed = [&](std::span<const detail::Copy> span) {
    for (const detail::Copy& c : span) {
      if (c.reader >= rerun_from + plan_->lookahead + 1) break;  // issued at rerun_from or later
      rerun_from = std::min<std::size_t>(rerun_from, c.issue);
    }
    if (!span.empty()) resync_from = std::max<std::size_t>(resync_from, span.back().reader + 1);
  };
  changed(std::span(copies).subspan(keep + same, planned - same - tail));
  changed(std::span(replaced_).subspan(same, old - same - tail));
  last_rerun_from_ = rerun_from;

  // 3. The log rows of the common suffix follow their copies to their new index.
  const std::size_t suffix_old = (keep + old - tail) * stride;
  const std::size_t suffix_new = (keep + planned - tail) * stride;
  if (suffix_new > suffix_old) {
    log_.resize(copies.size() * stride);
    std::copy_backward(log_.begin() + static_cast<std::ptrdiff_t>(suffix_old),
                       log_.begin() + static_cast<std::ptrdiff_t>(suffix_old + tail * stride),
                       log_.begin() + static_cast<std::ptrdiff_t>(suffix_new + tail * stride));
  } else if (suffix_new < suffix_old) {
    std::copy(log_.begin() + static_cast<std::ptrdiff_t>(suffix_old),
              log_.begin() + static_cast<std::ptrdiff_t>(suffix_old + tail * stride),
              log_.begin() + static_cast<std::ptrdiff_t>(suffix_new));
    log_.resize(copies.size() * stride);
  }

  // 4. Progress as at the start of rerun_from, then the layers again from there, until the run
  // is back in step with the previous one.
  for (std::size_t i = 0; i < copies.size(); ++i) {
    detail::Copy& c = copies[i];
    if (c.reader < rerun_from) continue;
    const bool planned_again = i >= keep + same && i < keep + planned - tail;
    c.done = planned_again || c.issue >= rerun_from ? 0 : log_[i * stride + (rerun_from - c.issue)];
  }
  detail::rerun_layers(sim, *plan_, pinned_.transfer_fs().data(), rerun_from, dma_,
                       pinned_.layer_times().data(), layer_fs_.data(), log_.data(), resync_from);
  latency_ = std::accumulate(layer_fs_.begin(), layer_fs_.end(), TimeFs{0});
}

}  // namespace memplace
