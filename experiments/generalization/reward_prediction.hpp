// Pretraining by reward prediction (the chip-placement paper's idea, beside GO): a GNN with the
// critics' shape — the trunk and the Q head, which reads a whole mapping — trained supervised to
// predict the reward of (graph, mapping) pairs that the simulator labels for free, over the graphs
// a policy would train on. Its trunk then starts a learner's networks (TrainConfig::init_policy,
// agents/nn/start_from.hpp): the actor's trunk for ppo, sac and egrl, and for sac and egrl the
// critics whole, Q head included (the targets are in their units: reward_scale x reward).
//
// The mappings are drawn half uniformly at random and half from the compiler's mapping with a few
// tensors moved (where the good mappings are), so the labels cover both invalid and near-optimal
// placements.
#pragma once

#include <cstdint>
#include <vector>

#include "agents/nn/gnn.hpp"
#include "agents/training/train_config.hpp"

namespace memplace::experiments {

struct RewardPredictionConfig {
  // The graphs to learn on: each a model scored as the runs' single-step env scores it. All on
  // chips with the same number of memories.
  std::vector<agents::ScoringEnv> graphs;
  std::size_t hidden = 64;  // the learners' default
  std::size_t conv_layers = 3;
  std::uint64_t steps = 1000;  // Adam steps, the graphs in turn
  std::size_t minibatch = 32;  // mappings per step
  double learning_rate = 1e-3;
  double reward_scale = 5;  // sac's and egrl's default: targets in their critics' units
  std::uint64_t seed = 0;
  // The node features the network reads (those of the runs it starts: agents/node_features.hpp).
  agents::NodeFeatures features = agents::NodeFeatures::observation;
};

struct RewardPrediction {
  nn::Gnn<float> network;
  double first_loss = 0;  // mean squared error of the first tenth of the steps
  double last_loss = 0;   // and of the last tenth
  // On fresh mappings (64 per graph, another stream): the share of the targets' variance the
  // predictions explain, 1 − SSE / SST (1: perfect; 0: no better than their mean).
  double held_out_r2 = 0;
};

// Throws InputError for a graph that does not load or graphs with different memories.
RewardPrediction pretrain_reward_predictor(const RewardPredictionConfig& config);

}  // namespace memplace::experiments
