// The sequential (mallocGame-style) environment: one tensor per step, in a fixed order, with an
// action mask of the memories where it fits over its whole live range. Tensors not yet placed
// count in the slowest memory, so every state is a valid mapping and every episode ends valid.
// docs/envs/sequential.md describes observation, action, reward, termination and options.
#pragma once

#include "base/options.hpp"
#include "env/env.hpp"
#include "env/placement_context.hpp"
#include "env/placement_order.hpp"
#include "env/registry.hpp"
#include "model/dynamics/incremental_streaming.hpp"

namespace memplace {

// The sequential env's own options (the model's are the model spec's): order and reward.
using SequentialOptions = StepwiseOptions;

class SequentialEnv final : public Env {
 public:
  SequentialEnv(std::string id, std::shared_ptr<const PlacementContext> context,
                SequentialOptions options = {});

  // Node feature columns after the static ones (-v0), and the -v1 ids' two more: the free share
  // of the staging memories at the layer's step, and the layer's memory-bound share.
  static constexpr std::size_t kDynamicFeatures = 6;
  static constexpr std::size_t kStreamingDynamicFeatures = 2;

  const std::string& id() const override { return id_; }
  Space observation_space() const override;
  Space action_space() const override;
  std::size_t episode_length() const override { return order_->size(); }
  ResetResult reset(std::optional<std::uint64_t> seed = std::nullopt) override;
  // Starts an episode in which the tensors not yet placed wait where `start` puts them instead of
  // in the slowest memory: every state is then `start` with the steps so far applied, and an
  // episode's rewards sum to the change in speedup from `start` (search agents improve a mapping
  // this way). `start` must be a mapping of every tensor, valid under the env's dynamics;
  // std::invalid_argument otherwise, and the env then needs a reset. Costs about an episode's
  // steps.
  ResetResult reset_to(std::span<const MemoryIndex> start);
  StepResult step(std::span<const std::int64_t> action) override;
  using Env::step;
  ObservationView observation() const override;
  std::unique_ptr<Env> clone() const override { return std::make_unique<SequentialEnv>(*this); }
  OptionMap options() const override;
  const Simulator& simulator() const override { return *ctx_->sim; }

  // The tensors of an episode, in placement order (tensors of zero bytes are not placed).
  std::span<const std::size_t> placement_order() const { return *order_; }
  // The mapping so far (unplaced tensors in the slowest memory, or where reset_to's start put
  // them).
  std::span<const MemoryIndex> mapping() const { return ev_.mapping(); }
  // The tensor the next step places; std::logic_error once the episode has ended.
  std::size_t current_tensor() const;

 private:
  void point_at(std::size_t tensor, float flag);
  void write_memory_column(std::size_t tensor, MemoryIndex m);
  void refresh_mask();
  // -v1: the staging memories' free bytes over `tensor`'s live range after it moved from
  // memory `from`, and the memory-bound share of every layer whose time the move can change.
  void refresh_streaming_features(std::size_t tensor, MemoryIndex from);
  void write_memory_bound_shares(std::size_t from_layer);

  std::string id_;
  std::shared_ptr<const PlacementContext> ctx_;
  SequentialOptions options_;
  std::shared_ptr<const std::vector<std::size_t>> order_;
  // The mapping so far, scored under the context's dynamics (all-slowest: copied on reset, and
  // shared by clones, which search agents make at every node).
  std::shared_ptr<const IncrementalStreamingEvaluator> pristine_;
  IncrementalStreamingEvaluator ev_;
  std::shared_ptr<const std::vector<float>> pristine_dynamic_;
  std::size_t features_;        // dynamic columns: kDynamicFeatures (+ the -v1 ones)
  std::vector<float> dynamic_;  // N x features_
  // -v1: per step, the staging memories' capacity minus pinned weights and live activations.
  std::shared_ptr<const std::vector<std::int64_t>> pristine_free_;
  std::vector<std::int64_t> staging_free_;
  std::vector<bool> is_staging_;  // per memory
  double staging_capacity_ = 0;
  std::vector<std::uint8_t> mask_;
  std::size_t cursor_ = 0;
  bool done_ = true;
  double start_speedup_ = 0;  // the episode's first state's: the sparse reward's reference
  EnvInfo info_;
};

}  // namespace memplace
