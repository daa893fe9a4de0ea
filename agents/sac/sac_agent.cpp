// sac: each call proposes a batch of mappings from the SAC actor (its greedy mapping first, then
// samples of π); learn() puts every scored mapping in the replay buffer and runs the gradient
// steps the new samples earn (agents/sac/sac_learner.hpp does the learning).
#include <algorithm>
#include <cstdio>

#include "agents/registry.hpp"
#include "agents/sac/sac_options.hpp"

namespace memplace::agents {
namespace {

class SacAgent final : public Agent {
 public:
  explicit SacAgent(const AgentSetup& setup)
      : learner_(nn::GraphBatch(setup.observation.view()), setup.context->sim->num_memories(),
                 sac_options(Hyperparameters("sac", setup.hyperparameters), setup.threads),
                 setup.seed, *setup.ranks) {
    if (setup.initial_policy) learner_.start_from(*setup.initial_policy);
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

  void gather_over_ranks() override { learner_.share_critics(); }

  void save(StateWriter& out) const override { learner_.save(out, "sac"); }
  void load(StateReader& in) override { learner_.load(in, "sac"); }

  std::string status() const override {
    const SacStats& s = learner_.stats();
    char text[160];
    std::snprintf(text, sizeof text,
                  "steps %llu, critic loss %.3g, Q %.3g, entropy %.3f/tensor, alpha %.3g",
                  static_cast<unsigned long long>(learner_.gradient_steps()), s.critic_loss,
                  s.q_mean, s.entropy, s.alpha);
    return text;
  }

  std::optional<nn::Gnn<float>> policy() const override { return learner_.actor(); }

 private:
  SacLearner learner_;
  std::size_t batch_ = 1;
  bool greedy_ = true;
  double epsilon_ = 0;
};

}  // namespace

AgentInfo sac_agent() {
  std::vector<OptionSpec> specs = sac_hyperparameters();
  const std::vector<OptionSpec> proposals = {
      {"batch", "32", {}, "mappings proposed per call: the greedy one, then samples of the actor"},
      {"greedy", "true", {"true", "false"}, "propose the actor's argmax mapping in every batch"},
      {"noise", "10", {}, "sampled proposals: expected tensors then moved to a uniform memory"}};
  specs.insert(specs.end(), proposals.begin(), proposals.end());
  AgentInfo info{
      "sac",
      "EGRL's learner alone: discrete SAC, GNN actor and twin GNN Q critics, one-step targets",
      {"single-step"},
      std::move(specs),
      [](const AgentSetup& setup) { return std::make_unique<SacAgent>(setup); },
      std::nullopt,
      /*starts_from_policy=*/true};
  info.run_cost = {.seconds_per_tensor = 0.109};
  info.has_policy = true;
  return info;
}

}  // namespace memplace::agents
