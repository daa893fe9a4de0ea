// PPO's loss for the single-step env, as gradients with respect to the policy logits and the value
// (docs/agents.md, ppo).
//
// Every sample of a rollout is a whole mapping drawn from the same observation, so one forward
// pass gives the logits and the value for every sample of a minibatch. The loss
//
//   L = mean_b [ -min(ρ_b A_b, clip(ρ_b, 1-ε, 1+ε) A_b) ] + c_v mean_b (V - r_b)² - c_e H̄(π)
//
// (ρ_b = π(a_b) / π_old(a_b), π of a mapping the product over its 2N tensors; H̄ the mean entropy
// per tensor) is therefore differentiated with respect to that one forward's outputs: each sample
// adds its coefficient times d log π(a_b) / d logits into one dlogits buffer, and the caller runs
// one backward.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace memplace::agents {

// The mappings of one rollout, what the policy that drew them thought of them, and their rewards.
struct Rollout {
  std::size_t tensors = 0;            // per mapping (2N): the rows of the logits' 2N x M view
  std::vector<std::uint8_t> actions;  // size() x tensors, mapping b from b * tensors
  std::vector<double> old_log_prob;   // log π_old(a_b), summed over the tensors
  std::vector<double> reward;         // the env's reward of each mapping
  std::vector<double> advantage;      // filled by compute_advantages
  double old_value = 0;               // V_old of the observation (the same for every sample)

  std::size_t size() const { return old_log_prob.size(); }
  std::span<const std::uint8_t> action(std::size_t b) const {
    return std::span<const std::uint8_t>(actions).subspan(b * tensors, tensors);
  }
  void clear();
};

// A_b = r_b - V_old; with `normalize`, rescaled to mean 0 and standard deviation 1 over the
// rollout (divided by std + 1e-8, as SB3 and CleanRL do, so equal rewards give A = 0).
void compute_advantages(Rollout& rollout, bool normalize);

struct PpoCoefficients {
  double clip_range = 0.2;  // ε
  double ent_coef = 0;      // c_e, on the mean entropy per tensor
  double vf_coef = 0.5;     // c_v
};

// Diagnostics of one minibatch, at the parameters of its forward pass.
struct PpoStats {
  double policy_loss = 0;
  double value_loss = 0;     // mean (V - r)², before c_v
  double entropy = 0;        // of the whole policy, summed over the tensors
  double clip_fraction = 0;  // of samples with |ρ - 1| > ε
  double approx_kl = 0;      // mean (ρ - 1) - log ρ (Schulman's low-variance estimator)
};

// Adds dL/dlogits (logits: the 2N x M view of the policy head's output) into `dlogits` and
// dL/dV into `dvalue`, for the samples `minibatch` of `rollout`, from one forward's `logits` and
// `value`. The clipped surrogate's gradient is -ρ_b A_b / |B| · d log π(a_b) where the clip is
// inactive and 0 where it is active (ρ_b A_b > clip(ρ_b) A_b: outside [1-ε, 1+ε] on the side that
// the advantage favours). `log_probs` is scratch (resized to the logits' size).
PpoStats ppo_gradient(std::span<const float> logits, std::size_t memories, float value,
                      const Rollout& rollout, std::span<const std::uint32_t> minibatch,
                      const PpoCoefficients& c, std::span<float> dlogits, float& dvalue,
                      std::vector<float>& log_probs);

}  // namespace memplace::agents
