#include "model/incremental.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace memplace {

IncrementalEvaluator::IncrementalEvaluator(const Simulator& simulator)
    : IncrementalEvaluator(simulator,
                           uniform_mapping(simulator.num_layers(), simulator.slowest())) {}

IncrementalEvaluator::IncrementalEvaluator(const Simulator& simulator,
                                           std::span<const MemoryIndex> mapping)
    : sim_(&simulator), num_memories_(simulator.num_memories()) {
  live_.assign(num_memories_, RangeMaxTree(simulator.num_layers()));
  reset(mapping);
}

void IncrementalEvaluator::reset(std::span<const MemoryIndex> mapping) {
  const Simulator& sim = *sim_;
  sim.check_mapping(mapping);
  const std::size_t n = sim.num_layers();
  const std::size_t mc = num_memories_;
  mapping_.assign(mapping.begin(), mapping.end());
  acc_.assign(n * mc, 0);
  layer_fs_.assign(n, 0);
  pinned_.assign(mc, 0);
  for (RangeMaxTree& tree : live_)
    tree.clear();
  latency_ = 0;
  for (std::size_t l = 0; l < n; ++l) {
    const MemoryIndex w = mapping_[tensor_id(l, TensorKind::weight)];
    const MemoryIndex o = mapping_[tensor_id(l, TensorKind::activation)];
    TimeFs* acc = &acc_[l * mc];
    sim.add_transfer_fs(l, mapping_, acc);
    layer_fs_[l] = sim.layer_time(l, acc);
    latency_ += layer_fs_[l];
    pinned_[w] += sim.tensor_bytes(tensor_id(l, TensorKind::weight));
    const std::size_t out = tensor_id(l, TensorKind::activation);
    if (sim.tensor_bytes(out) != 0) {
      live_[o].add(sim.live_first(out), sim.live_last(out), sim.tensor_bytes(out));
    }
  }
}

std::int64_t IncrementalEvaluator::overflow_bytes(std::size_t m) const {
  return std::max<std::int64_t>(0, peak_bytes(m) - sim_->capacity(m));
}

std::int64_t IncrementalEvaluator::total_overflow_bytes() const {
  std::int64_t total = 0;
  for (std::size_t m = 0; m < num_memories_; ++m)
    total += overflow_bytes(m);
  return total;
}

void IncrementalEvaluator::check(std::size_t tensor, MemoryIndex m) const {
  if (tensor >= mapping_.size()) {
    throw std::out_of_range("tensor " + std::to_string(tensor) + " out of range (workload has " +
                            std::to_string(mapping_.size()) + " tensors)");
  }
  if (m >= num_memories_) {
    throw std::out_of_range("memory " + std::to_string(m) + " out of range (hardware has " +
                            std::to_string(num_memories_) + " memories)");
  }
}

void IncrementalEvaluator::refresh_layer(std::size_t layer) {
  const TimeFs t = sim_->layer_time(layer, &acc_[layer * num_memories_]);
  latency_ += t - layer_fs_[layer];
  layer_fs_[layer] = t;
}

TimeFs IncrementalEvaluator::layer_time_after(std::size_t layer, MemoryIndex from, TimeFs remove,
                                              MemoryIndex to, TimeFs add) const {
  std::array<TimeFs, kMaxMemories> acc{};
  std::copy_n(&acc_[layer * num_memories_], num_memories_, acc.begin());
  acc[from] -= remove;
  acc[to] += add;
  return sim_->layer_time(layer, acc.data());
}

TimeFs IncrementalEvaluator::preview_latency(std::size_t tensor, MemoryIndex m) const {
  check(tensor, m);
  const MemoryIndex old = mapping_[tensor];
  if (old == m) return latency_;
  const Simulator& sim = *sim_;
  const std::size_t l = tensor_layer(tensor);
  if (tensor_kind(tensor) == TensorKind::weight) {
    return latency_ - layer_fs_[l] +
           layer_time_after(l, old, sim.weight_fs(l, old), m, sim.weight_fs(l, m));
  }
  TimeFs latency = latency_ - layer_fs_[l] +
                   layer_time_after(l, old, sim.output_fs(l, old), m, sim.output_fs(l, m));
  for (const Simulator::Dependency& d : sim.out_edges(l)) {
    latency +=
        layer_time_after(d.layer, old, sim.read_fs(d.index, old), m, sim.read_fs(d.index, m)) -
        layer_fs_[d.layer];
  }
  return latency;
}

std::int64_t IncrementalEvaluator::live_max_after(std::size_t m, std::size_t first,
                                                  std::size_t last, std::int64_t delta) {
  RangeMaxTree& tree = live_[m];
  if (delta > 0) return std::max(tree.max(), tree.max(first, last) + delta);
  // Removing bytes: the new maximum is inside the range (lowered) or outside it (unchanged).
  std::int64_t best = tree.max(first, last) + delta;
  if (first > 0) best = std::max(best, tree.max(0, first - 1));
  if (last + 1 < sim_->num_layers())
    best = std::max(best, tree.max(last + 1, sim_->num_layers() - 1));
  return best;
}

IncrementalEvaluator::Outcome IncrementalEvaluator::preview(std::size_t tensor, MemoryIndex m) {
  Outcome outcome;
  outcome.latency_fs = preview_latency(tensor, m);
  const MemoryIndex old = mapping_[tensor];
  const std::int64_t bytes = sim_->tensor_bytes(tensor);
  std::array<std::int64_t, kMaxMemories> peak{};
  for (std::size_t k = 0; k < num_memories_; ++k)
    peak[k] = peak_bytes(k);
  if (old != m && bytes != 0) {
    if (tensor_kind(tensor) == TensorKind::weight) {
      peak[old] -= bytes;
      peak[m] += bytes;
    } else {
      const std::size_t first = sim_->live_first(tensor);
      const std::size_t last = sim_->live_last(tensor);
      peak[old] = pinned_[old] + live_max_after(old, first, last, -bytes);
      peak[m] = pinned_[m] + live_max_after(m, first, last, bytes);
    }
  }
  for (std::size_t k = 0; k < num_memories_; ++k) {
    outcome.overflow_bytes += std::max<std::int64_t>(0, peak[k] - sim_->capacity(k));
  }
  outcome.valid = outcome.overflow_bytes == 0;
  return outcome;
}

bool IncrementalEvaluator::fits(std::size_t tensor, MemoryIndex m) {
  return fits(tensor, m, sim_->capacity(m));
}

bool IncrementalEvaluator::fits(std::size_t tensor, MemoryIndex m, std::int64_t capacity) {
  check(tensor, m);
  const std::int64_t bytes = sim_->tensor_bytes(tensor);
  // Its own bytes already count if it is in m now.
  const std::int64_t extra = mapping_[tensor] == m ? 0 : bytes;
  if (tensor_kind(tensor) == TensorKind::weight) {
    return peak_bytes(m) + extra <= capacity;
  }
  const std::int64_t live = live_[m].max(sim_->live_first(tensor), sim_->live_last(tensor));
  return pinned_[m] + live + extra <= capacity;
}

void IncrementalEvaluator::move(std::size_t tensor, MemoryIndex m) {
  check(tensor, m);
  const MemoryIndex old = mapping_[tensor];
  if (old == m) return;
  const Simulator& sim = *sim_;
  const std::size_t mc = num_memories_;
  const std::size_t l = tensor_layer(tensor);
  const std::int64_t bytes = sim.tensor_bytes(tensor);
  mapping_[tensor] = m;
  TimeFs* acc = &acc_[l * mc];
  if (tensor_kind(tensor) == TensorKind::weight) {
    acc[old] -= sim.weight_fs(l, old);
    acc[m] += sim.weight_fs(l, m);
    refresh_layer(l);
    pinned_[old] -= bytes;
    pinned_[m] += bytes;
    return;
  }
  acc[old] -= sim.output_fs(l, old);
  acc[m] += sim.output_fs(l, m);
  refresh_layer(l);
  for (const Simulator::Dependency& d : sim.out_edges(l)) {
    TimeFs* consumer = &acc_[d.layer * mc];
    consumer[old] -= sim.read_fs(d.index, old);
    consumer[m] += sim.read_fs(d.index, m);
    refresh_layer(d.layer);
  }
  if (bytes != 0) {
    live_[old].add(sim.live_first(tensor), sim.live_last(tensor), -bytes);
    live_[m].add(sim.live_first(tensor), sim.live_last(tensor), bytes);
  }
}

}  // namespace memplace
