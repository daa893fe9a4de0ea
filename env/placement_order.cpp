#include "env/placement_order.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/incremental.hpp"

namespace memplace {

std::vector<OptionSpec> StepwiseOptions::specs(const std::string& dense) {
  return {{"order",
           "schedule",
           {"schedule", "msa"},
           "placement order: schedule (layer order, weight first) or msa (benefit per "
           "sqrt(bytes), descending)"},
          {"reward",
           "dense",
           {"dense", "terminal"},
           "dense: " + dense + "; terminal: the total at the last step"},
          {"masked_action",
           "raise",
           {"raise", "fallback"},
           "an action the mask forbids: raise (an error, nothing changes) or fallback (the nearest "
           "allowed action after it, else before it, is taken; info replaced_action = 1)"}};
}

StepwiseOptions StepwiseOptions::from_options(const OptionMap& resolved) {
  StepwiseOptions o;
  o.order = resolved.at("order") == "msa" ? PlacementOrder::msa : PlacementOrder::schedule;
  o.reward = resolved.at("reward") == "terminal" ? RewardTiming::terminal : RewardTiming::dense;
  o.masked_action =
      resolved.at("masked_action") == "fallback" ? MaskedAction::fallback : MaskedAction::raise;
  return o;
}

OptionMap StepwiseOptions::to_options() const {
  return {{"order", order == PlacementOrder::msa ? "msa" : "schedule"},
          {"reward", reward == RewardTiming::terminal ? "terminal" : "dense"},
          {"masked_action", masked_action == MaskedAction::fallback ? "fallback" : "raise"}};
}

std::size_t fallback_action(std::span<const std::uint8_t> mask, std::size_t action) {
  for (std::size_t a = action + 1; a < mask.size(); ++a)
    if (mask[a] != 0) return a;
  for (std::size_t a = action; a-- > 0;)
    if (mask[a] != 0) return a;
  throw std::logic_error("fallback_action: the mask allows no action");
}

std::size_t checked_discrete_action(const std::string& id, bool running,
                                    std::span<const std::int64_t> action, std::size_t n,
                                    const char* what) {
  if (!running) {
    throw std::invalid_argument(id +
                                ": step() with no episode running (before the first reset, or "
                                "after the episode ended); call reset()");
  }
  if (action.size() != 1) {
    throw std::invalid_argument(id + ": action has " + std::to_string(action.size()) +
                                " entries; expected 1 (" + what + ")");
  }
  if (action[0] < 0 || action[0] >= static_cast<std::int64_t>(n)) {
    throw std::invalid_argument(id + ": action " + std::to_string(action[0]) + " is not " + what +
                                " (0.." + std::to_string(n - 1) + ")");
  }
  return static_cast<std::size_t>(action[0]);
}

std::vector<std::size_t> placement_order(const Simulator& sim, PlacementOrder order) {
  std::vector<std::size_t> tensors;
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    if (sim.tensor_bytes(t) > 0) tensors.push_back(t);
  }
  if (order == PlacementOrder::msa) {
    const IncrementalEvaluator all_slowest(sim);
    std::vector<double> key(sim.num_tensors(), 0.0);
    for (std::size_t t : tensors) {
      const auto benefit =
          static_cast<double>(all_slowest.latency_fs() - all_slowest.preview_latency(t, 0));
      key[t] = benefit / std::sqrt(static_cast<double>(sim.tensor_bytes(t)));
    }
    std::stable_sort(tensors.begin(), tensors.end(),
                     [&](std::size_t a, std::size_t b) { return key[a] > key[b]; });
  }
  return tensors;
}

}  // namespace memplace
