#include "env/single_step_env.hpp"

#include <array>
#include <cmath>
#include <stdexcept>

#include "base/options.hpp"
#include "base/portable_math.hpp"
#include "model/rectify.hpp"
#include "model/references.hpp"

namespace memplace {

namespace {

constexpr std::string_view kSingleStepDynamicNames[] = {"weight_memory", "activation_memory"};

float memory_feature(MemoryIndex m, std::size_t memories) {
  return memories <= 1 ? 0.0f : static_cast<float>(m) / static_cast<float>(memories - 1);
}

}  // namespace

std::vector<OptionSpec> SingleStepOptions::specs() {
  return {{"reward",
           "speedup",
           {"speedup", "log-speedup", "egrl"},
           "speedup - 1, log(speedup), or speedup^2 - 1 (EGRL) for a valid mapping"},
          {"invalid",
           "penalize",
           {"penalize", "rectify"},
           "an overflowing mapping gets a penalty, or is rectified and scored"}};
}

SingleStepOptions SingleStepOptions::from_options(const OptionMap& resolved) {
  SingleStepOptions o;
  const std::string& reward = resolved.at("reward");
  o.reward = reward == "log-speedup" ? SpeedupReward::log_speedup
             : reward == "egrl"      ? SpeedupReward::egrl
                                     : SpeedupReward::speedup;
  o.invalid =
      resolved.at("invalid") == "rectify" ? InvalidPolicy::rectify : InvalidPolicy::penalize;
  return o;
}

OptionMap SingleStepOptions::to_options() const {
  return {{"reward", reward == SpeedupReward::log_speedup ? "log-speedup"
                     : reward == SpeedupReward::egrl      ? "egrl"
                                                          : "speedup"},
          {"invalid", invalid == InvalidPolicy::rectify ? "rectify" : "penalize"}};
}

std::unique_ptr<SingleStepEnv> SingleStepEnv::make(const ModelSpec& model, ModelVersion version,
                                                   SingleStepOptions options) {
  return std::make_unique<SingleStepEnv>(
      "memplace/single-step-" + std::string(version_name(version)),
      make_placement_context(model, version), options);
}

SingleStepEnv::SingleStepEnv(std::string id, std::shared_ptr<const PlacementContext> context,
                             SingleStepOptions options)
    : id_(std::move(id)), ctx_(std::move(context)), options_(options) {
  const Simulator& sim = *ctx_->sim;
  const std::size_t m_count = sim.num_memories();
  fast_capacity_ = 0;
  for (std::size_t m = 0; m + 1 < m_count; ++m)
    fast_capacity_ += sim.capacity(m);
  if (fast_capacity_ == 0) fast_capacity_ = sim.capacity(0);
  auto mask = std::make_shared<std::vector<std::uint8_t>>(sim.num_tensors() * m_count);
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    for (std::size_t m = 0; m < m_count; ++m) {
      (*mask)[t * m_count + m] = sim.tensor_bytes(t) <= sim.capacity(m) ? 1 : 0;
    }
  }
  mask_ = std::move(mask);
  dynamic_.resize(sim.num_tensors());
  show_mapping(all_slowest_mapping(sim));
}

Space SingleStepEnv::observation_space() const {
  const Simulator& sim = *ctx_->sim;
  return GraphSpace{sim.num_layers(),
                    ctx_->graph->num_features + 2,
                    ctx_->graph->num_edges(),
                    mask_->size(),
                    0.0f,
                    1.0f};
}

Space SingleStepEnv::action_space() const {
  const Simulator& sim = *ctx_->sim;
  return MultiDiscrete{
      std::vector<std::int64_t>(sim.num_tensors(), static_cast<std::int64_t>(sim.num_memories()))};
}

void SingleStepEnv::show_mapping(std::span<const MemoryIndex> mapping) {
  // A table lookup, not a division per tensor: this runs on every step.
  const std::size_t m_count = ctx_->sim->num_memories();
  std::array<float, kMaxMemories> feature{};
  for (std::size_t m = 0; m < m_count; ++m)
    feature[m] = memory_feature(static_cast<MemoryIndex>(m), m_count);
  for (std::size_t t = 0; t < mapping.size(); ++t)
    dynamic_[t] = feature[mapping[t]];
}

ObservationView SingleStepEnv::observation() const {
  ObservationView view;
  view.graph = ctx_->graph.get();
  view.owner = &ctx_->graph;
  view.dynamic = dynamic_;
  view.dynamic_features = 2;
  view.dynamic_names = std::span(kSingleStepDynamicNames);
  view.action_mask = *mask_;
  return view;
}

ResetResult SingleStepEnv::reset(std::optional<std::uint64_t> seed) {
  if (seed) rng_.reseed(*seed);
  const Simulator& sim = *ctx_->sim;
  if (!done_) return {observation(), last_info_};  // already fresh: nothing to undo
  std::fill(dynamic_.begin(), dynamic_.end(), memory_feature(sim.slowest(), sim.num_memories()));
  done_ = false;
  last_info_ = EnvInfo{};
  last_info_.latency_fs = ctx_->all_slowest_fs;
  last_info_.speedup = ctx_->speedup(ctx_->all_slowest_fs);
  return {observation(), last_info_};
}

double SingleStepEnv::valid_reward(double speedup) const {
  switch (options_.reward) {
    case SpeedupReward::log_speedup:
      return portable::log(speedup);
    case SpeedupReward::egrl:
      return speedup * speedup - 1;
    case SpeedupReward::speedup:
      break;
  }
  return speedup - 1;
}

double SingleStepEnv::invalid_reward(std::int64_t overflow_bytes) const {
  // No valid mapping is slower than all-slowest, so its reward is the floor of valid rewards
  // (EGRL's code puts invalid mappings below -1, which the egrl mode keeps).
  const double floor = options_.reward == SpeedupReward::egrl
                           ? -1.0
                           : valid_reward(ctx_->speedup(ctx_->all_slowest_fs));
  return floor - static_cast<double>(overflow_bytes) / static_cast<double>(fast_capacity_);
}

StepResult SingleStepEnv::step(std::span<const std::int64_t> action) {
  require_episode();
  const Simulator& sim = *ctx_->sim;
  require_length(action.size());
  const auto m_count = static_cast<std::int64_t>(sim.num_memories());
  mapping_.resize(action.size());
  for (std::size_t t = 0; t < action.size(); ++t) {
    if (action[t] < 0 || action[t] >= m_count) {
      throw std::invalid_argument(id_ + ": action[" + std::to_string(t) +
                                  "] = " + std::to_string(action[t]) + " is not a memory (0.." +
                                  std::to_string(m_count - 1) + ")");
    }
    mapping_[t] = static_cast<MemoryIndex>(action[t]);
  }
  return score_mapping();
}

StepResult SingleStepEnv::step_mapping(std::span<const MemoryIndex> mapping) {
  require_episode();
  require_length(mapping.size());
  ctx_->sim->check_mapping(mapping);
  mapping_.assign(mapping.begin(), mapping.end());
  return score_mapping();
}

void SingleStepEnv::require_episode() const {
  if (done_) {
    throw std::invalid_argument(id_ +
                                ": step() with no episode running (before the first reset, or "
                                "after the episode ended); call reset()");
  }
}

void SingleStepEnv::require_length(std::size_t entries) const {
  const Simulator& sim = *ctx_->sim;
  if (entries != sim.num_tensors()) {
    throw std::invalid_argument(id_ + ": action has " + std::to_string(entries) +
                                " entries; expected " + std::to_string(sim.num_tensors()) +
                                " (weight and activation memory of each of " +
                                std::to_string(sim.num_layers()) + " layers)");
  }
}

StepResult SingleStepEnv::score_mapping() {
  const Simulator& sim = *ctx_->sim;
  StepResult r;
  sim.evaluate(mapping_, eval_);
  r.info.valid = eval_.valid;
  r.info.overflow_bytes = eval_.total_overflow_bytes();
  if (!eval_.valid && options_.invalid == InvalidPolicy::rectify) {
    Rectified fixed = rectify(sim, mapping_);
    mapping_ = std::move(fixed.mapping);
    sim.evaluate(mapping_, eval_);
    r.info.rectified = true;
    r.info.demotions = fixed.demotions;
  }
  r.info.latency_fs = eval_.latency_fs;
  r.info.speedup = ctx_->speedup(eval_.latency_fs);
  r.info.step = 1;
  r.reward = eval_.valid ? valid_reward(r.info.speedup) : invalid_reward(r.info.overflow_bytes);
  r.terminated = true;
  done_ = true;
  show_mapping(mapping_);
  last_info_ = r.info;
  r.obs = observation();
  return r;
}

OptionMap SingleStepEnv::options() const {
  return ctx_->options_with(options_.to_options());
}

EnvFamily single_step_family() {
  return family<SingleStepEnv, SingleStepOptions>(
      {.kind = "single-step",
       .description = "the whole mapping in one step (EGRL)",
       .versions = {ModelVersion::v0, ModelVersion::v1, ModelVersion::v2},
       .own_option_specs = &SingleStepOptions::specs});
}

}  // namespace memplace
