// The mcts agent's network: the GNN's policy head as the search's prior, read once per decision,
// and trained by self-play toward the search's improved policy (AlphaZero's policy iteration,
// with Gumbel MuZero's completed-Q target).
//
// One read per decision: the GNN runs on the state the decision is made in, and its per-tensor
// logits are the prior of every node of that decision's tree (a node's prior is the row of the
// tensor it places; the few tensors the tree placed above it are not re-read). A read per node
// would cost simulations x episode-length passes per episode.
//
// Training: from each self-play episode, `samples` decisions drawn at random are kept in a replay
// buffer (the decision's dynamic features, its tensor, the improved policy over its actions);
// after the episode, `updates` Adam steps on minibatches of `batch` decisions minimise the
// cross-entropy from the improved policy to the network's masked softmax.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "agents/nn/adam.hpp"
#include "agents/nn/gnn.hpp"
#include "agents/planning/gumbel_search.hpp"
#include "base/rng.hpp"
#include "base/state_archive.hpp"
#include "env/observation.hpp"

namespace memplace::agents::planning {

struct MctsNetworkOptions {
  std::size_t hidden = 32;
  std::size_t conv_layers = 2;
  double learning_rate = 1e-3;
  std::size_t batch = 16;     // decisions per Adam step
  std::size_t updates = 4;    // Adam steps after each episode
  std::size_t replay = 1024;  // decisions kept (the oldest go first)
  std::size_t samples = 32;   // decisions kept from each episode
};

class MctsNetwork {
 public:
  // For observations like `observation` (the sequential env's) with `memories` actions.
  MctsNetwork(const ObservationView& observation, std::size_t memories,
              const MctsNetworkOptions& options, std::uint64_t seed);

  // One read on the state a decision is made in.
  void read(const ObservationView& observation);
  // The prior of the tensor a tree node places, from the last read (a zero value: the dense
  // rewards carry the value, docs/agents.md).
  PriorAndValue prior(std::size_t tensor) const;

  // A decision to learn from: its observation, its tensor and the search's improved policy.
  void remember(const ObservationView& observation, std::size_t tensor,
                std::span<const double> improved_policy);
  // `options.updates` Adam steps on minibatches drawn with `rng`; returns the mean loss (0 when
  // the buffer is empty).
  double train(Rng& rng);

  const MctsNetworkOptions& options() const { return options_; }
  std::size_t remembered() const { return size_; }
  void save(StateWriter& out) const;
  void load(StateReader& in);

 private:
  MctsNetworkOptions options_;
  std::shared_ptr<const StaticGraph> graph_;
  std::size_t dynamic_features_;
  std::size_t memories_;
  nn::Gnn<float> net_;
  nn::Adam<float> adam_;
  nn::ParameterSet<float> grads_;
  nn::GnnWorkspace<float> ws_;
  std::vector<float> logits_;  // the last read's, tensors x memories
  // The replay buffer, a ring of options_.replay decisions.
  std::vector<float> dynamic_;  // replay x nodes x dynamic features
  std::vector<std::uint32_t> tensor_;
  std::vector<float> policy_;       // replay x memories
  std::vector<std::uint8_t> mask_;  // replay x memories: the decision's allowed actions
  std::size_t size_ = 0, next_ = 0;
};

}  // namespace memplace::agents::planning
