// PPO's learner for the single-step env: a GNN actor-critic (policy and value heads on one trunk,
// docs/gnn.md), its Adam optimiser, and the update over a rollout (docs/agents.md, ppo).
//
// The observation never changes, so its GraphBatch is built once. Sampling a rollout is one
// forward pass; each gradient step is one forward and one backward for its whole minibatch
// (agents/policy_gradient/ppo_loss.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "agents/nn/adam.hpp"
#include "agents/nn/gnn.hpp"
#include "agents/nn/graph_batch.hpp"
#include "agents/policy_gradient/ppo_loss.hpp"
#include "base/rng.hpp"
#include "base/state_archive.hpp"
#include "env/observation.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace::agents {

struct PpoOptions {
  std::size_t hidden = 64;
  std::size_t conv_layers = 3;
  double lr = 1e-3;  // as the agent's defaults (docs/agents.md, ppo)
  double max_grad_norm = 0.5;
  std::size_t epochs = 1;
  std::size_t minibatches = 4;
  bool normalize_advantage = true;
  PpoCoefficients loss;
  // Linear decay to 0 over the run (CleanRL anneals the learning rate by default), applied by
  // update()'s `remaining`.
  bool anneal_lr = false;
  bool anneal_entropy = false;
};

// Averages over the gradient steps of one update.
struct PpoUpdateStats {
  PpoStats loss;
  double grad_norm = 0;  // before clipping
  std::size_t steps = 0;
};

class PpoLearner {
 public:
  PpoLearner(const ObservationView& observation, std::size_t memories, const PpoOptions& options,
             std::uint64_t seed);

  std::size_t tensors() const { return tensors_; }
  std::size_t memories() const { return memories_; }

  // Runs the network on the observation; then logits() is the 2N x M view of the policy (row t
  // = tensor t of a Mapping) and value() the critic's estimate of the policy's mean reward.
  void forward();
  std::span<const float> logits() const { return ws_.logits(); }
  float value() const { return ws_.values()[0]; }

  // After forward(): `count` mappings drawn from the policy, appended to `mappings` and recorded
  // in `rollout` (actions, log π_old, V_old), which is cleared first.
  void sample(std::size_t count, Rng& rng, Rollout& rollout, std::vector<Mapping>& mappings);
  // After forward(): the most likely mapping.
  Mapping argmax() const;

  // One PPO update from a rollout whose rewards are filled: advantages, then `epochs` passes over
  // `minibatches` shuffled minibatches (drawn from `rng`), one Adam step each. `remaining` (in
  // [0, 1], the share of the run's budget not yet spent) scales what the options anneal.
  PpoUpdateStats update(Rollout& rollout, Rng& rng, double remaining = 1);

  const nn::Gnn<float>& network() const { return net_; }
  nn::Gnn<float>& network() { return net_; }
  const nn::Adam<float>& optimiser() const { return adam_; }

  // Parameters and Adam's state under records named `prefix`.*.
  void save(StateWriter& out, std::string_view prefix) const;
  void load(StateReader& in, std::string_view prefix);

 private:
  PpoOptions options_;
  std::size_t tensors_;
  std::size_t memories_;
  nn::GraphBatch batch_;
  nn::Gnn<float> net_;
  nn::Adam<float> adam_;
  nn::GnnWorkspace<float> ws_;
  // Reused across steps so steady-state updates do not allocate.
  nn::ParameterSet<float> grads_;
  std::vector<float> dlogits_, log_probs_;
  std::vector<std::uint32_t> order_;
};

}  // namespace memplace::agents
