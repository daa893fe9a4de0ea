#include "env/sequential_env.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/options.hpp"

namespace memplace {

namespace {

using namespace tensor_columns;
// The -v1 columns after the shared ones.
constexpr std::size_t kFreeStaging = 6;
constexpr std::size_t kMemoryBoundShare = 7;
// The dynamic columns' names; -v0 has the first six.
constexpr auto kSequentialDynamicNames =
    tensor_columns::names_then<2>({"free_staging", "memory_bound_share"});

}  // namespace

SequentialEnv::SequentialEnv(std::string id, std::shared_ptr<const PlacementContext> context,
                             StepwiseOptions options)
    : id_(std::move(id)),
      ctx_(std::move(context)),
      options_(options),
      order_(std::make_shared<const std::vector<std::size_t>>(
          memplace::placement_order(*ctx_->sim, options.order))),
      pristine_(std::make_shared<const IncrementalStreamingEvaluator>(*ctx_->sim)),
      ev_(*pristine_),
      features_(kDynamicFeatures + (ctx_->streaming_features() ? kStreamingDynamicFeatures : 0)) {
  const Simulator& sim = *ctx_->sim;
  if (order_->empty()) {
    throw InputError(id_ + ": workload '" + sim.workload().name() + "' has no tensor to place");
  }
  // Unplaced tensors wait in the slowest memory: if they do not all fit there, some step would
  // have no legal action (an all-zero mask) and the episode could not end.
  if (!pristine_->valid()) {
    throw InputError(id_ + ": workload '" + sim.workload().name() + "' does not fit in " +
                     sim.hardware().memories.back().name + " (" +
                     std::to_string(pristine_->pinned().overflow_bytes(sim.slowest())) +
                     " bytes over) even with every tensor there");
  }
  dynamic_.assign(sim.num_layers() * features_, 0.0f);
  const float slowest = sim.num_memories() <= 1 ? 0.0f : 1.0f;
  for (std::size_t l = 0; l < sim.num_layers(); ++l) {
    dynamic_[l * features_ + kWeightMemory] = slowest;
    dynamic_[l * features_ + kActivationMemory] = slowest;
  }
  if (features_ > kDynamicFeatures) {
    // Everything starts in the slowest memory, which stages nothing: the staging memories are free.
    is_staging_.assign(sim.num_memories(), false);
    for (const std::size_t m : sim.hardware().staging_memories()) {
      is_staging_[m] = true;
      staging_capacity_ += static_cast<double>(sim.capacity(m));
    }
    pristine_free_ = std::make_shared<const std::vector<std::int64_t>>(
        sim.num_layers(), static_cast<std::int64_t>(staging_capacity_));
    staging_free_ = *pristine_free_;
    for (std::size_t l = 0; l < sim.num_layers(); ++l)
      dynamic_[l * features_ + kFreeStaging] = staging_capacity_ > 0 ? 1.0f : 0.0f;
    write_memory_bound_shares(0);
  }
  pristine_dynamic_ = std::make_shared<const std::vector<float>>(dynamic_);
  mask_.assign(sim.num_memories(), 0);
}

Space SequentialEnv::observation_space() const {
  const Simulator& sim = *ctx_->sim;
  return GraphSpace{sim.num_layers(),
                    ctx_->graph->num_features + features_,
                    ctx_->graph->num_edges(),
                    sim.num_memories(),
                    0.0f,
                    1.0f};
}

Space SequentialEnv::action_space() const {
  return Discrete{static_cast<std::int64_t>(ctx_->sim->num_memories())};
}

ObservationView SequentialEnv::observation() const {
  ObservationView view;
  view.graph = ctx_->graph.get();
  view.owner = &ctx_->graph;
  view.dynamic = dynamic_;
  view.dynamic_features = features_;
  view.dynamic_names = std::span(kSequentialDynamicNames).first(features_);
  view.action_mask = mask_;
  return view;
}

void SequentialEnv::point_at(std::size_t tensor, float flag) {
  dynamic_[tensor_layer(tensor) * features_ + column(tensor, kWeightCurrent, kActivationCurrent)] =
      flag;
}

void SequentialEnv::write_memory_column(std::size_t tensor, MemoryIndex m) {
  const std::size_t memories = mask_.size();
  dynamic_[tensor_layer(tensor) * features_ + column(tensor, kWeightMemory, kActivationMemory)] =
      memories <= 1 ? 0.0f : static_cast<float>(m) / static_cast<float>(memories - 1);
}

void SequentialEnv::refresh_mask() {
  const std::size_t tensor = (*order_)[cursor_];
  for (std::size_t m = 0; m < mask_.size(); ++m) {
    mask_[m] = ev_.fits(tensor, static_cast<MemoryIndex>(m)) ? 1 : 0;
  }
}

void SequentialEnv::refresh_streaming_features(std::size_t tensor, MemoryIndex from) {
  const Simulator& sim = *ctx_->sim;
  const std::int64_t change = (is_staging_[from] ? sim.tensor_bytes(tensor) : 0) -
                              (is_staging_[ev_.mapping()[tensor]] ? sim.tensor_bytes(tensor) : 0);
  if (change != 0) {
    for (std::size_t step = sim.live_first(tensor); step <= sim.live_last(tensor); ++step) {
      staging_free_[step] += change;
      dynamic_[step * features_ + kFreeStaging] = static_cast<float>(
          std::clamp(static_cast<double>(staging_free_[step]) / staging_capacity_, 0.0, 1.0));
    }
  }
  write_memory_bound_shares(ev_.last_rerun_from());
}

void SequentialEnv::write_memory_bound_shares(std::size_t from) {
  const Simulator& sim = *ctx_->sim;
  for (std::size_t l = from; l < sim.num_layers(); ++l) {
    const TimeFs t = ev_.layer_fs(l);
    const TimeFs waiting = t - sim.overhead_fs() - sim.compute_fs(l);
    dynamic_[l * features_ + kMemoryBoundShare] =
        waiting <= 0 ? 0.0f
                     : static_cast<float>(static_cast<double>(waiting) / static_cast<double>(t));
  }
}

std::size_t SequentialEnv::current_tensor() const {
  if (done_) throw std::logic_error(id_ + ": no tensor to place: the episode has ended");
  return (*order_)[cursor_];
}

ResetResult SequentialEnv::reset(std::optional<std::uint64_t> seed) {
  if (seed) rng_.reseed(*seed);
  ev_ = *pristine_;
  if (pristine_free_)
    std::copy(pristine_free_->begin(), pristine_free_->end(), staging_free_.begin());
  std::copy(pristine_dynamic_->begin(), pristine_dynamic_->end(), dynamic_.begin());
  cursor_ = 0;
  done_ = false;
  point_at((*order_)[0], 1.0f);
  refresh_mask();
  info_ = EnvInfo{};
  info_.latency_fs = ev_.latency_fs();
  info_.speedup = ctx_->speedup(info_.latency_fs);
  start_speedup_ = ctx_->speedup(ctx_->all_slowest_fs);
  return {observation(), info_};
}

ResetResult SequentialEnv::reset_to(std::span<const MemoryIndex> start) {
  const Simulator& sim = *ctx_->sim;
  if (start.size() != sim.num_tensors()) {
    done_ = true;
    throw std::invalid_argument(id_ + ": a start mapping needs " +
                                std::to_string(sim.num_tensors()) +
                                " memories, one per tensor; got " + std::to_string(start.size()));
  }
  reset();
  const MemoryIndex slowest = sim.slowest();
  for (std::size_t t = 0; t < start.size(); ++t) {
    if (start[t] >= sim.num_memories()) {
      done_ = true;
      throw std::invalid_argument(id_ + ": start mapping: tensor " + std::to_string(t) +
                                  " has memory " + std::to_string(start[t]) + ", not in 0.." +
                                  std::to_string(sim.num_memories() - 1));
    }
    if (start[t] == slowest || sim.tensor_bytes(t) == 0) continue;
    ev_.move(t, start[t]);
    if (features_ > kDynamicFeatures) refresh_streaming_features(t, slowest);
    write_memory_column(t, start[t]);
  }
  if (!ev_.valid()) {
    done_ = true;
    throw std::invalid_argument(id_ + ": the start mapping does not fit: " +
                                std::to_string(ev_.pinned().total_overflow_bytes()) +
                                " bytes over the memories' capacities");
  }
  refresh_mask();
  info_.latency_fs = ev_.latency_fs();
  info_.speedup = ctx_->speedup(info_.latency_fs);
  start_speedup_ = info_.speedup;
  return {observation(), info_};
}

StepResult SequentialEnv::step(std::span<const std::int64_t> action) {
  std::size_t a = checked_discrete_action(id_, !done_, action, mask_.size(), "a memory index");
  const std::size_t tensor = (*order_)[cursor_];
  const bool replaced = mask_[a] == 0 && options_.masked_action == MaskedAction::fallback;
  if (replaced) a = fallback_action(mask_, a);
  if (mask_[a] == 0) {
    throw std::invalid_argument(
        id_ + ": action " + std::to_string(a) +
        " is masked: " + ctx_->sim->hardware().memories[a].name + " cannot hold the " +
        (tensor_kind(tensor) == TensorKind::weight ? "weight" : "activation") + " of layer '" +
        ctx_->sim->workload().layer(tensor_layer(tensor)).name + "' over its live range");
  }

  const double before = info_.speedup;
  const auto m = static_cast<MemoryIndex>(a);
  const MemoryIndex from = ev_.mapping()[tensor];
  ev_.move(tensor, m);
  if (features_ > kDynamicFeatures) refresh_streaming_features(tensor, from);
  write_memory_column(tensor, m);
  dynamic_[tensor_layer(tensor) * features_ + column(tensor, kWeightPlaced, kActivationPlaced)] =
      1.0f;
  point_at(tensor, 0.0f);
  ++cursor_;

  info_.latency_fs = ev_.latency_fs();
  info_.speedup = ctx_->speedup(info_.latency_fs);
  info_.step = cursor_;
  info_.replaced_action = replaced;
  const bool terminated = cursor_ == order_->size();
  double reward = 0;
  if (options_.reward == RewardTiming::dense) {
    reward = info_.speedup - before;
  } else if (terminated) {
    reward = info_.speedup - start_speedup_;
  }
  if (terminated) {
    done_ = true;
    std::fill(mask_.begin(), mask_.end(), 0);
  } else {
    point_at((*order_)[cursor_], 1.0f);
    refresh_mask();
  }
  // Built whole: a default-constructed StepResult is zeroed first (a `rep stos` of 176 bytes)
  // and then overwritten, which made the step a third slower (docs/performance.md).
  return {.obs = observation(),
          .reward = reward,
          .terminated = terminated,
          .truncated = false,
          .info = info_};
}

OptionMap SequentialEnv::options() const {
  return ctx_->options_with(options_.to_options());
}

EnvFamily sequential_family() {
  return family<SequentialEnv, StepwiseOptions>(
      {.kind = "sequential",
       .description = "one tensor per step, a memory each, masked",
       .own_option_specs = [] { return StepwiseOptions::specs("each step's change in speedup"); }});
}

}  // namespace memplace
