// sac: each call proposes a batch of mappings from the SAC actor (its greedy mapping first, then
// samples of π); learn() puts every scored mapping in the replay buffer and runs the gradient
// steps the new samples earn (agents/sac_learner.hpp does the learning).
#include <algorithm>
#include <cstdio>

#include "agents/sac_agent_info.hpp"
#include "agents/sac_learner.hpp"

namespace memplace::agents {
namespace {

SacOptions sac_options(const AgentSetup& setup) {
  const Hyperparameters h("sac", setup.hyperparameters);
  SacOptions o;
  o.hidden = static_cast<std::size_t>(h.integer("hidden", 1, 1024));
  o.conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 0, 16));
  o.learning_rate = h.number("lr", 1e-8, 1);
  o.max_grad_norm = h.number("clip", 0, 1e6);
  o.tau = h.number("tau", 1e-6, 1);
  o.alpha = h.number("alpha", 0, 1e3);
  o.entropy_mean = h.text("entropy") == "mean";
  o.reward_scale = h.number("reward_scale", 1e-6, 1e6);
  o.gamma = h.number("gamma", 0, 0.9999);
  o.minibatch = static_cast<std::size_t>(h.integer("minibatch", 1, 4096));
  o.actor_samples = static_cast<std::size_t>(h.integer("actor_samples", 1, 1024));
  o.estimator = h.text("estimator") == "score" ? ActorEstimator::score : ActorEstimator::local;
  o.buffer_capacity = static_cast<std::size_t>(h.integer("buffer", 1, 10'000'000));
  o.learning_starts = static_cast<std::size_t>(h.integer("learning_starts", 1, 10'000'000));
  o.gradient_steps_per_sample = h.number("grad_per_sample", 0, 64);
  o.threads = std::max(1, setup.threads);
  o.validate();
  return o;
}

class SacAgent final : public Agent {
 public:
  explicit SacAgent(const AgentSetup& setup)
      : learner_(nn::GraphBatch(setup.observation.view()), setup.context->sim->num_memories(),
                 sac_options(setup), setup.seed) {
    const Hyperparameters h("sac", setup.hyperparameters);
    batch_ = static_cast<std::size_t>(h.integer("batch", 1, 4096));
    greedy_ = h.flag("greedy");
    // Expected moves per proposal, whatever the workload's size.
    epsilon_ = std::min(1.0, h.number("noise", 0, 1e6) / static_cast<double>(learner_.tensors()));
  }

  std::vector<Mapping> propose(std::size_t limit) override {
    const std::size_t count = std::min(limit, batch_);
    if (!greedy_) return learner_.sample(count, epsilon_);
    std::vector<Mapping> out;
    out.reserve(count);
    out.push_back(learner_.greedy());
    for (Mapping& m : learner_.sample(count - 1, epsilon_))
      out.push_back(std::move(m));
    return out;
  }

  void learn(std::span<const Mapping>, std::span<const Outcome> outcomes) override {
    // The reward belongs to the mapping that was scored (rectified, if the env rectifies).
    for (const Outcome& o : outcomes)
      learner_.add(o.scored, o.reward);
    learner_.train_for_new_samples(outcomes.size());
  }

  void save(StateWriter& out) const override { learner_.save(out, "sac"); }
  void load(StateReader& in) override { learner_.load(in, "sac"); }

  std::string status() const override {
    const SacStats& s = learner_.stats();
    char text[160];
    std::snprintf(text, sizeof text, "steps %llu, critic loss %.3g, Q %.3g, entropy %.3f/tensor",
                  static_cast<unsigned long long>(learner_.gradient_steps()), s.critic_loss,
                  s.q_mean, s.entropy);
    return text;
  }

 private:
  SacLearner learner_;
  std::size_t batch_ = 1;
  bool greedy_ = true;
  double epsilon_ = 0;
};

}  // namespace

AgentInfo sac_agent_info() {
  return {
      "sac",
      "EGRL's learner alone: discrete SAC, GNN actor and twin GNN Q critics, one-step targets",
      {"single-step"},
      {{"hidden", "64", {}, "GNN hidden size (EGRL: 128; halved for wall time)"},
       {"conv_layers", "3", {}, "graph convolution layers of each GNN"},
       {"lr", "0.001", {}, "Adam learning rate of the actor and the critics (EGRL)"},
       {"clip", "5", {}, "global gradient-norm clipping, 0 = none (EGRL)"},
       {"alpha", "0.5", {}, "fixed entropy coefficient, in scaled reward units (EGRL: 0.05)"},
       {"entropy", "mean", {"mean", "sum"}, "alpha weighs the mean or the sum of tensor entropies"},
       {"tau", "0.001", {}, "soft target update per gradient step (EGRL)"},
       {"gamma", "0", {}, "0: critic target = scaled reward (one step); > 0: EGRL's bootstrap"},
       {"reward_scale", "5", {}, "rewards are multiplied by this for the critics (EGRL)"},
       {"batch", "32", {}, "mappings proposed per call: the greedy one, then samples of the actor"},
       {"greedy", "true", {"true", "false"}, "propose the actor's argmax mapping in every batch"},
       {"noise", "3", {}, "sampled proposals: expected tensors then moved to a uniform memory"},
       {"minibatch", "32", {}, "buffer samples per critic gradient step"},
       {"actor_samples", "2", {}, "actions drawn from the actor per actor gradient step"},
       {"estimator", "local", {"local", "score"}, "actor gradient: local expectation or REINFORCE"},
       {"buffer", "100000", {}, "replay buffer capacity, in mappings (EGRL)"},
       {"learning_starts", "50", {}, "samples in the buffer before the first gradient step (EGRL)"},
       {"grad_per_sample", "0.5", {}, "gradient steps per new sample (EGRL's gradperstep)"}},
      [](const AgentSetup& setup) { return std::make_unique<SacAgent>(setup); }};
}

}  // namespace memplace::agents
