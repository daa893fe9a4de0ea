#include "agents/policy_gradient/ppo_loss.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "agents/nn/categorical.hpp"
#include "base/portable_math.hpp"

namespace memplace::agents {

namespace {

// log ρ is a sum over 2N tensors, so after a few updates it can be large; capping it keeps ρ and
// the gradient finite (Adam refuses an infinite gradient) without changing which samples clip.
constexpr double kMaxLogRatio = 30;

// One clipped-surrogate term -min(ρA, clip(ρ)A) and its coefficient on d log π.
struct Ratio {
  Ratio(double raw_log_ratio, double advantage, const PpoCoefficients& c) {
    const double log_ratio = std::clamp(raw_log_ratio, -kMaxLogRatio, kMaxLogRatio);
    const double ratio = portable::exp(log_ratio);
    const double clipped_ratio = std::clamp(ratio, 1 - c.clip_range, 1 + c.clip_range);
    loss = -std::min(ratio * advantage, clipped_ratio * advantage);
    kl = (ratio - 1) - log_ratio;
    outside = std::abs(ratio - 1) > c.clip_range;
    // The min picks the clipped term (constant in θ) exactly when the ratio has left the range
    // on the side the advantage pushes towards; then the term has no gradient.
    const bool clipped =
        (advantage > 0 && ratio > 1 + c.clip_range) || (advantage < 0 && ratio < 1 - c.clip_range);
    scale = clipped ? 0.0 : -ratio * advantage;
  }
  double loss = 0, kl = 0, scale = 0;
  bool outside = false;
};

}  // namespace

void Rollout::clear() {
  actions.clear();
  old_log_prob.clear();
  reward.clear();
  advantage.clear();
  old_value = 0;
}

void compute_advantages(Rollout& rollout, bool normalize) {
  const std::size_t n = rollout.size();
  if (rollout.reward.size() != n) throw std::logic_error("ppo: a reward for every sample expected");
  rollout.advantage.resize(n);
  for (std::size_t b = 0; b < n; ++b)
    rollout.advantage[b] = rollout.reward[b] - rollout.old_value;
  if (!normalize || n == 0) return;
  double mean = 0;
  for (const double a : rollout.advantage)
    mean += a;
  mean /= static_cast<double>(n);
  double variance = 0;
  for (const double a : rollout.advantage)
    variance += (a - mean) * (a - mean);
  // Unbiased, as torch.std (SB3, CleanRL); one sample has no spread: its advantage becomes 0.
  const double std = n > 1 ? std::sqrt(variance / static_cast<double>(n - 1)) : 0.0;
  for (double& a : rollout.advantage)
    a = (a - mean) / (std + 1e-8);
}

PpoStats ppo_gradient(std::span<const float> logits, std::size_t memories, float value,
                      const Rollout& rollout, std::span<const std::uint32_t> minibatch,
                      const PpoCoefficients& c, std::span<float> dlogits, float& dvalue,
                      std::vector<float>& log_probs) {
  const std::size_t rows = rollout.tensors;
  if (minibatch.empty()) throw std::logic_error("ppo: empty minibatch");
  if (rollout.advantage.size() != rollout.size())
    throw std::logic_error("ppo: advantages not computed");
  log_probs.resize(logits.size());
  nn::log_softmax_rows<float>(logits, rows, memories, log_probs);

  const double inv = 1.0 / static_cast<double>(minibatch.size());
  PpoStats stats;
  double dv = 0;
  for (const std::uint32_t b : minibatch) {
    const std::span<const std::uint8_t> action = rollout.action(b);
    const double a = rollout.advantage[b];
    // log π(a_b) from the log-softmax computed once for the minibatch.
    double log_prob = 0;
    for (std::size_t r = 0; r < rows; ++r)
      log_prob += log_probs[r * memories + action[r]];
    const Ratio x(log_prob - rollout.old_log_prob[b], a, c);
    stats.policy_loss += x.loss * inv;
    stats.approx_kl += x.kl * inv;
    if (x.outside) stats.clip_fraction += inv;
    if (x.scale != 0)
      nn::log_prob_backward<float>(logits, rows, memories, action, x.scale * inv, dlogits);
    const double error = static_cast<double>(value) - rollout.reward[b];
    stats.value_loss += error * error * inv;
    dv += 2 * c.vf_coef * error * inv;
  }
  // The state is the same for every sample, so the entropy bonus is one term, not one per sample.
  // It is on the mean entropy per tensor: on the sum, 0.01 outweighs the diluted per-tensor
  // policy gradient of a large graph and holds the policy near uniform (docs/agents.md, ppo).
  stats.entropy = nn::entropy<float>(logits, rows, memories);
  if (c.ent_coef != 0)
    nn::entropy_backward<float>(logits, rows, memories, -c.ent_coef / static_cast<double>(rows),
                                dlogits);
  dvalue += static_cast<float>(dv);
  return stats;
}

}  // namespace memplace::agents
