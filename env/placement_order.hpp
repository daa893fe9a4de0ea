// What the one-tensor-per-step environments (sequential, malloc env) share: the order in
// which they visit tensors, their order and reward options, their action checks and the first
// dynamic feature columns.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/options.hpp"
#include "model/simulator.hpp"

namespace memplace {

enum class PlacementOrder : std::uint8_t {
  schedule,  // layer by layer, weight before activation (default)
  msa,       // benefit per sqrt(bytes), descending, as XLA's memory-space assignment orders
};
enum class RewardTiming : std::uint8_t {
  dense,     // each step: the change its decision makes (default)
  terminal,  // 0 until the last step, then the episode's whole gain
};

// What a step does with an action its mask forbids (docs/envs/README.md, "Masked actions").
enum class MaskedAction : std::uint8_t {
  raise,     // throw std::invalid_argument, change nothing (default)
  fallback,  // take fallback_action(mask, action) instead, info.replaced_action = true
};

// The options these environments share, by name: order, reward and masked_action.
struct StepwiseOptions {
  PlacementOrder order = PlacementOrder::schedule;
  RewardTiming reward = RewardTiming::dense;
  MaskedAction masked_action = MaskedAction::raise;

  // With defaults and allowed values; `dense` says what the dense reward is in the environment.
  static std::vector<OptionSpec> specs(const std::string& dense);
  // From options resolved against specs().
  static StepwiseOptions from_options(const OptionMap& resolved);
  OptionMap to_options() const;
  friend bool operator==(const StepwiseOptions&, const StepwiseOptions&) = default;
};

// The checks every step of a Discrete(n) environment makes before acting: an episode running, one
// entry, in range. Throws std::invalid_argument naming what was wrong (`what`: "a memory index").
std::size_t checked_discrete_action(const std::string& id, bool running,
                                    std::span<const std::int64_t> action, std::size_t n,
                                    const char* what);

// The action taken for a masked `action` under masked_action=fallback: the nearest allowed action
// after it, else the nearest before it. In the sequential env (memories from fast to slow) that is
// the next slower memory that holds the tensor, as a compiler demotes one that does not fit; in
// the malloc env, the next offset rule of the same memory, then the slower on-chip memories',
// then the earlier rules and faster memories, and the slowest memory (action 0) last. `mask` must
// allow some action (it does before an episode ends).
std::size_t fallback_action(std::span<const std::uint8_t> mask, std::size_t action);

// The dynamic node feature columns both environments start with, and which of a pair a tensor
// uses (its layer's weight or activation).
namespace tensor_columns {
inline constexpr std::size_t kWeightMemory = 0;
inline constexpr std::size_t kActivationMemory = 1;
inline constexpr std::size_t kWeightPlaced = 2;
inline constexpr std::size_t kActivationPlaced = 3;
inline constexpr std::size_t kWeightCurrent = 4;
inline constexpr std::size_t kActivationCurrent = 5;
// Their names, in column order (docs/envs/sequential.md), followed by an env's own `more`.
template <std::size_t N>
constexpr std::array<std::string_view, 6 + N> names_then(
    const std::array<std::string_view, N>& more) {
  std::array<std::string_view, 6 + N> out{"weight_memory",  "activation_memory",
                                          "weight_placed",  "activation_placed",
                                          "weight_current", "activation_current"};
  for (std::size_t i = 0; i < N; ++i)
    out[6 + i] = more[i];
  return out;
}
inline std::size_t column(std::size_t tensor, std::size_t weight_column,
                          std::size_t activation_column) {
  return tensor_kind(tensor) == TensorKind::weight ? weight_column : activation_column;
}
}  // namespace tensor_columns

// The tensors with bytes, in `order` (msa's benefit: the pinned latency a tensor alone saves in
// the fastest memory, from the all-slowest mapping).
std::vector<std::size_t> placement_order(const Simulator& sim, PlacementOrder order);

}  // namespace memplace
