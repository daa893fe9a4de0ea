// The single-step (EGRL) environment: the action is the whole mapping, the episode one step.
// docs/envs/single-step.md describes observation, action, reward, termination and options.
#pragma once

#include <string_view>

#include "base/options.hpp"
#include "env/env.hpp"
#include "env/placement_context.hpp"
#include "env/registry.hpp"

namespace memplace {

enum class SpeedupReward : std::uint8_t {
  speedup,      // speedup - 1: 0 at parity with the compiler (default)
  log_speedup,  // log(speedup)
  egrl,         // speedup^2 - 1, as the EGRL code
};
enum class InvalidPolicy : std::uint8_t {
  penalize,  // a reward below every valid reward, lower the larger the overflow (default)
  rectify,   // demote tensors until the mapping fits, then score it (model/rectify.hpp)
};

// The single-step env's own options (the model's are the model spec's).
struct SingleStepOptions {
  SpeedupReward reward = SpeedupReward::speedup;
  InvalidPolicy invalid = InvalidPolicy::penalize;

  // By name: reward and invalid, with defaults and allowed values.
  static std::vector<OptionSpec> specs();
  // From options resolved against specs().
  static SingleStepOptions from_options(const OptionMap& resolved);
  OptionMap to_options() const;
  friend bool operator==(const SingleStepOptions&, const SingleStepOptions&) = default;
};

class SingleStepEnv final : public Env {
 public:
  SingleStepEnv(std::string id, std::shared_ptr<const PlacementContext> context,
                SingleStepOptions options = {});
  // memplace/single-step-<version> on a model spec, made directly for code that needs the
  // concrete type (the trainer, zero-shot transfer). InputError as make() throws it.
  static std::unique_ptr<SingleStepEnv> make(const ModelSpec& model, ModelVersion version,
                                             SingleStepOptions options = {});

  const std::string& id() const override { return id_; }
  Space observation_space() const override;
  Space action_space() const override;
  std::size_t episode_length() const override { return 1; }
  ResetResult reset(std::optional<std::uint64_t> seed = std::nullopt) override;
  StepResult step(std::span<const std::int64_t> action) override;
  using Env::step;
  // The same step with the action as a mapping (agents that hold one skip the widening to
  // int64 and back); std::invalid_argument like step() for a wrong length or memory.
  StepResult step_mapping(std::span<const MemoryIndex> mapping);
  ObservationView observation() const override;
  std::unique_ptr<Env> clone() const override { return std::make_unique<SingleStepEnv>(*this); }
  OptionMap options() const override;
  const Simulator& simulator() const override { return *ctx_->sim; }

  // The mapping the last step scored: the action, or its rectified version (a view, valid until
  // the next step).
  std::span<const MemoryIndex> scored_mapping() const { return mapping_; }
  const std::shared_ptr<const PlacementContext>& context() const { return ctx_; }

  // The reward of a valid mapping with this speedup, and of an invalid one with this overflow.
  double valid_reward(double speedup) const;
  double invalid_reward(std::int64_t overflow_bytes) const;

 private:
  void require_episode() const;
  void require_length(std::size_t entries) const;
  // Scores mapping_ (checked), ends the episode and returns the step.
  StepResult score_mapping();
  void show_mapping(std::span<const MemoryIndex> mapping);

  std::string id_;
  std::shared_ptr<const PlacementContext> ctx_;
  SingleStepOptions options_;
  std::int64_t fast_capacity_;  // what overflow is measured against in the penalty
  std::vector<float> dynamic_;  // N x 2: weight and activation memory, scaled to [0, 1]
  std::shared_ptr<const std::vector<std::uint8_t>> mask_;  // static 2N x M hint
  Mapping mapping_;
  Evaluation eval_;
  bool done_ = true;
  EnvInfo last_info_;
};

}  // namespace memplace
