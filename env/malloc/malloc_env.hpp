// The malloc env (mallocGame, Wang et al. 2023): one tensor per step, in a fixed order, placed
// either in the slowest memory or at an address of an on-chip memory — a rectangle of its bytes x
// its live steps that must not overlap any placed before it. The action is one of K candidate
// placements (the slowest memory, then per on-chip memory the lowest, best-fit, widest-gap and
// highest offsets it fits at), masked where a candidate does not exist or repeats one before it.
// The episode's mapping and offsets are scored under the context's dynamics with exactly those
// addresses (cost model v2: the staging buffers then find their own). docs/envs/malloc.md
// describes observation, action, reward, termination and options.
#pragma once

#include "base/options.hpp"
#include "env/env.hpp"
#include "env/malloc/malloc_arrays.hpp"
#include "env/malloc/occupancy_grid.hpp"
#include "env/placement_context.hpp"
#include "env/placement_order.hpp"
#include "env/registry.hpp"

namespace memplace {

class MallocEnv final : public Env {
 public:
  MallocEnv(std::string id, std::shared_ptr<const PlacementContext> context,
            StepwiseOptions options = {});

  // Candidates per on-chip memory (allocation::kGapRules), and the dynamic node feature columns.
  static constexpr std::size_t kRulesPerMemory = 4;
  static constexpr std::size_t kDynamicFeatures = 8;

  const std::string& id() const override { return setup_->id; }
  Space observation_space() const override;
  Space action_space() const override;
  std::size_t episode_length() const override { return setup_->order.size(); }
  ResetResult reset(std::optional<std::uint64_t> seed = std::nullopt) override;
  StepResult step(std::span<const std::int64_t> action) override;
  using Env::step;
  ObservationView observation() const override;
  std::unique_ptr<Env> clone() const override { return std::make_unique<MallocEnv>(*this); }
  OptionMap options() const override;
  const Simulator& simulator() const override { return *ctx_->sim; }

  // The tensors of an episode, in placement order (tensors of zero bytes are not placed).
  std::span<const std::size_t> placement_order() const { return setup_->order; }
  // The tensor the next step places; std::logic_error once the episode has ended.
  std::size_t current_tensor() const;
  // The mapping so far (unplaced tensors in the slowest memory) and each tensor's offset in its
  // memory (-1 in the slowest).
  std::span<const MemoryIndex> mapping() const { return arrays_.mapping(); }
  std::vector<std::int64_t> tensor_offsets() const;
  // Candidate a's memory and offset for the tensor being placed (offset -1: none, or the slowest
  // memory).
  MemoryIndex candidate_memory(std::size_t a) const;
  std::int64_t candidate_offset(std::size_t a) const { return arrays_.candidates()[a]; }

 private:
  // What every state of one environment shares, its clones included: set at construction.
  struct Setup {
    std::string id;
    std::vector<std::size_t> order;  // placement order
    std::size_t memories = 0;        // on-chip (addressed) memories: every one but the slowest
    double potential_scale = 1;
    // The state after reset (all tensors in the slowest memory).
    TimeFs pinned_fs = 0;
    std::vector<float> dynamic;
    OccupancyGrid grid;
  };
  static std::shared_ptr<const Setup> make_setup(std::string id, const PlacementContext& context,
                                                 const StepwiseOptions& options);

  // The arrays as after reset, but for the pointer, the candidates and the mask.
  void restore_initial_state();
  void refresh_candidates();
  void place(std::size_t tensor, MemoryIndex m, std::int64_t offset);
  // The pinned time of the layers whose time depends on where `tensor` is (its layer; an
  // activation's consumers too), each counted once, from the mapping: a move's change in the total
  // is this after it less this before it.
  TimeFs pinned_fs_of_layers_using(std::size_t tensor) const;
  // The potential of dense rewards (docs/envs/malloc.md): the pinned latency, scaled so that the
  // all-slowest mapping's equals its latency under the context's dynamics, as a speedup.
  double potential() const;
  // The episode's mapping and offsets, scored under the context's dynamics.
  TimeFs final_latency() const;
  void set_pointer(std::size_t tensor, float flag);

  std::shared_ptr<const PlacementContext> ctx_;
  std::shared_ptr<const Setup> setup_;
  StepwiseOptions options_;
  // The state, kept small because search agents clone it at every node: in arrays_, the mapping,
  // the blocks per on-chip memory by offset (the offsets live only there), each action's candidate
  // offset (or -1), and the observation's buffers (N x kDynamicFeatures node features, the
  // occupancy grid, the mask); the pinned latency, but not its layer times (a move re-derives
  // the few layers it changes before and after).
  MallocArrays arrays_;
  TimeFs pinned_fs_ = 0;
  std::size_t cursor_ = 0;
  bool done_ = true;
  double potential_now_ = 0;
  EnvInfo info_;
};

}  // namespace memplace
