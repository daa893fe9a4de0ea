#include "agents/sac/sac_options.hpp"

#include <algorithm>

namespace memplace::agents {

std::vector<OptionSpec> sac_hyperparameters() {
  return {
      {"hidden", "64", {}, "GNN hidden size (EGRL: 128; halved for wall time)"},
      {"conv_layers", "3", {}, "graph convolution layers of each GNN"},
      {"lr", "0.001", {}, "Adam learning rate of the actor and the critics (EGRL)"},
      {"clip", "5", {}, "global gradient-norm clipping, 0 = none (EGRL)"},
      {"alpha", "0.2", {}, "entropy coefficient, in scaled reward units (EGRL: 0.05)"},
      {"entropy", "mean", {"mean", "sum"}, "alpha weighs the mean or the sum of tensor entropies"},
      {"target_entropy",
       "0",
       {},
       "> 0: alpha tuned (from alpha) towards this share of ln M per tensor; 0: alpha fixed"},
      {"tau", "0.001", {}, "soft target update per gradient step (EGRL)"},
      {"gamma", "0", {}, "0: critic target = scaled reward (one step); > 0: EGRL's bootstrap"},
      {"reward_scale", "5", {}, "rewards are multiplied by this for the critics (EGRL)"},
      {"minibatch", "32", {}, "buffer samples per critic gradient step"},
      {"actor_samples", "2", {}, "actions drawn from the actor per actor gradient step"},
      {"estimator", "local", {"local", "score"}, "actor gradient: local expectation or REINFORCE"},
      {"buffer", "100000", {}, "replay buffer capacity, in mappings (EGRL)"},
      {"learning_starts", "50", {}, "samples in the buffer before the first gradient step (EGRL)"},
      {"grad_per_sample", "0.5", {}, "gradient steps per new sample (EGRL's gradperstep)"}};
}

SacOptions sac_options(const Hyperparameters& h, int threads) {
  SacOptions o;
  o.hidden = static_cast<std::size_t>(h.integer("hidden", 1, 1024));
  o.conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 0, 16));
  o.learning_rate = h.number("lr", 1e-8, 1);
  o.max_grad_norm = h.number("clip", 0, 1e6);
  o.tau = h.number("tau", 1e-6, 1);
  o.alpha = h.number("alpha", 0, 1e3);
  o.entropy_mean = h.text("entropy") == "mean";
  o.target_entropy = h.number("target_entropy", 0, 0.999999);
  o.reward_scale = h.number("reward_scale", 1e-6, 1e6);
  o.gamma = h.number("gamma", 0, 0.9999);
  o.minibatch = static_cast<std::size_t>(h.integer("minibatch", 1, 4096));
  o.actor_samples = static_cast<std::size_t>(h.integer("actor_samples", 1, 1024));
  o.estimator = h.text("estimator") == "score" ? ActorEstimator::score : ActorEstimator::local;
  o.buffer_capacity = static_cast<std::size_t>(h.integer("buffer", 1, 10'000'000));
  o.learning_starts = static_cast<std::size_t>(h.integer("learning_starts", 1, 10'000'000));
  o.gradient_steps_per_sample = h.number("grad_per_sample", 0, 64);
  o.threads = std::max(1, threads);
  o.validate();
  return o;
}

}  // namespace memplace::agents
