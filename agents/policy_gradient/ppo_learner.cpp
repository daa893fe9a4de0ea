#include "agents/policy_gradient/ppo_learner.hpp"

#include <algorithm>
#include <string>

#include "agents/nn/categorical.hpp"

namespace memplace::agents {

namespace {

nn::GnnConfig network_config(const ObservationView& observation, std::size_t memories,
                             const PpoOptions& options) {
  return nn::GnnConfig{.input_features = observation.num_features(),
                       .hidden = options.hidden,
                       .conv_layers = options.conv_layers,
                       .memories = memories,
                       .policy_head = true,
                       .value_head = true,
                       .q_head = false};
}

nn::AdamOptions adam_options(const PpoOptions& options) {
  // ε = 1e-5 rather than PyTorch's 1e-8: SB3's and CleanRL's PPO both use it.
  return nn::AdamOptions{
      .learning_rate = options.lr, .epsilon = 1e-5, .max_grad_norm = options.max_grad_norm};
}

}  // namespace

PpoLearner::PpoLearner(const ObservationView& observation, std::size_t memories,
                       const PpoOptions& options, std::uint64_t seed)
    : options_(options),
      tensors_(2 * observation.num_nodes()),
      memories_(memories),
      batch_(observation),
      net_(network_config(observation, memories, options), seed),
      adam_(net_.parameters().shared_layout(), adam_options(options)),
      grads_(net_.zero_gradients()) {}

void PpoLearner::forward() {
  net_.forward(batch_, ws_);
}

void PpoLearner::sample(std::size_t count, Rng& rng, Rollout& rollout,
                        std::vector<Mapping>& mappings) {
  rollout.clear();
  rollout.tensors = tensors_;
  rollout.old_value = value();
  log_probs_.resize(logits().size());
  nn::log_softmax_rows<float>(logits(), tensors_, memories_, log_probs_);
  Mapping mapping(tensors_);
  for (std::size_t b = 0; b < count; ++b) {
    nn::sample_rows<float>(logits(), tensors_, memories_, rng, mapping);
    // Summed exactly as ppo_gradient sums it, so the first step's ratio is exactly 1.
    double log_prob = 0;
    for (std::size_t r = 0; r < tensors_; ++r)
      log_prob += log_probs_[r * memories_ + mapping[r]];
    rollout.actions.insert(rollout.actions.end(), mapping.begin(), mapping.end());
    rollout.old_log_prob.push_back(log_prob);
    mappings.push_back(mapping);
  }
}

Mapping PpoLearner::argmax() const {
  Mapping mapping(tensors_);
  nn::argmax_rows<float>(logits(), tensors_, memories_, mapping);
  return mapping;
}

PpoUpdateStats PpoLearner::update(Rollout& rollout, Rng& rng, double remaining) {
  PpoUpdateStats out;
  const std::size_t n = rollout.size();
  if (n == 0) return out;
  remaining = std::clamp(remaining, 0.0, 1.0);
  // Adam refuses a zero rate; no update of a run comes after its budget is spent anyway.
  adam_.set_learning_rate(options_.lr * (options_.anneal_lr ? std::max(remaining, 1e-9) : 1.0));
  PpoCoefficients loss = options_.loss;
  if (options_.anneal_entropy) loss.ent_coef *= remaining;
  compute_advantages(rollout, options_.normalize_advantage);
  const std::size_t parts = std::min(options_.minibatches, n);
  order_.resize(n);
  dlogits_.resize(logits().size());
  for (std::size_t epoch = 0; epoch < options_.epochs; ++epoch) {
    // Fisher-Yates with the portable generator: the same minibatches on every platform.
    for (std::size_t i = 0; i < n; ++i)
      order_[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = n - 1; i > 0; --i)
      std::swap(order_[i], order_[rng.uniform(i + 1)]);
    for (std::size_t k = 0; k < parts; ++k) {
      const std::span<const std::uint32_t> minibatch =
          std::span<const std::uint32_t>(order_).subspan(k * n / parts,
                                                         (k + 1) * n / parts - k * n / parts);
      // One forward for the whole minibatch: every sample shares the observation.
      forward();
      std::fill(dlogits_.begin(), dlogits_.end(), 0.0f);
      float dvalue = 0;
      const PpoStats s = ppo_gradient(logits(), memories_, value(), rollout, minibatch, loss,
                                      dlogits_, dvalue, log_probs_);
      grads_.set_zero();
      net_.backward(batch_, ws_, {.logits = dlogits_, .values = std::span<const float>(&dvalue, 1)},
                    grads_);
      out.grad_norm += adam_.step(net_.parameters(), grads_);
      out.loss.policy_loss += s.policy_loss;
      out.loss.value_loss += s.value_loss;
      out.loss.entropy += s.entropy;
      out.loss.clip_fraction += s.clip_fraction;
      out.loss.approx_kl += s.approx_kl;
      ++out.steps;
    }
  }
  if (out.steps > 0) {
    const double inv = 1.0 / static_cast<double>(out.steps);
    out.grad_norm *= inv;
    out.loss.policy_loss *= inv;
    out.loss.value_loss *= inv;
    out.loss.entropy *= inv;
    out.loss.clip_fraction *= inv;
    out.loss.approx_kl *= inv;
  }
  return out;
}

void PpoLearner::save(StateWriter& out, std::string_view prefix) const {
  out.put_array<float>(state_key(prefix, "parameters"), net_.parameters().values());
  out.put(state_key(prefix, "adam.steps"), adam_.step_count());
  out.put_array<float>(state_key(prefix, "adam.m"), adam_.first_moment().values());
  out.put_array<float>(state_key(prefix, "adam.v"), adam_.second_moment().values());
}

void PpoLearner::load(StateReader& in, std::string_view prefix) {
  in.get_array_into<float>(state_key(prefix, "parameters"), net_.parameters().values());
  const std::uint64_t steps = in.get_u64(state_key(prefix, "adam.steps"));
  nn::ParameterSet<float> m(net_.parameters().shared_layout());
  nn::ParameterSet<float> v(net_.parameters().shared_layout());
  in.get_array_into<float>(state_key(prefix, "adam.m"), m.values());
  in.get_array_into<float>(state_key(prefix, "adam.v"), v.values());
  adam_.set_state(steps, m, v);
}

}  // namespace memplace::agents
