// Pretraining by reward prediction: on toy graphs the predictor's error falls and it explains
// most of the variance of fresh mappings' rewards; the same seed gives the same network; graphs on
// chips with different numbers of memories are refused; a sac learner started from it starts its
// critics from it too.
#include <doctest/doctest.h>

#include <algorithm>

#include "agents/nn/graph_batch.hpp"
#include "agents/sac/sac_learner.hpp"
#include "base/errors.hpp"
#include "env/single_step_env.hpp"
#include "experiments/generalization/reward_prediction.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

agents::ScoringEnv toy_graph(const testing::ToyProblem& toy) {
  agents::ScoringEnv g;
  g.model.workload = toy.workload.string();
  g.model.hardware = toy.hardware.string();
  return g;
}

TEST_CASE("reward prediction: the predictor learns the toy graphs' rewards, deterministically") {
  testing::TempDir dir;
  const testing::ToyProblem small = testing::make_toy_problem(dir.path, 6);
  const testing::ToyProblem large = testing::make_toy_problem(dir.path, 9);
  experiments::RewardPredictionConfig config;
  config.graphs = {toy_graph(small), toy_graph(large)};
  config.hidden = 16;
  config.steps = 400;
  const experiments::RewardPrediction p = experiments::pretrain_reward_predictor(config);
  CHECK(p.last_loss < 0.5 * p.first_loss);
  CHECK(p.held_out_r2 > 0.5);
  CHECK(p.network.config().q_head);
  CHECK_FALSE(p.network.config().policy_head);
  const experiments::RewardPrediction again = experiments::pretrain_reward_predictor(config);
  CHECK(std::equal(p.network.parameters().values().begin(), p.network.parameters().values().end(),
                   again.network.parameters().values().begin(),
                   again.network.parameters().values().end()));
  CHECK(again.held_out_r2 == p.held_out_r2);
}

TEST_CASE("reward prediction: graphs on chips with other numbers of memories are refused") {
  testing::TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 6);
  experiments::RewardPredictionConfig config;
  agents::ScoringEnv other = toy_graph(toy);
  other.model.hardware = "edge-tpu";  // 2 memories, the toy chip 3
  config.graphs = {toy_graph(toy), other};
  CHECK_THROWS_WITH_AS(experiments::pretrain_reward_predictor(config),
                       doctest::Contains("another number of memories"), InputError);
  config.graphs.clear();
  CHECK_THROWS_AS(experiments::pretrain_reward_predictor(config), InputError);
}

TEST_CASE("reward prediction: a sac learner starts its actor's trunk and its critics from it") {
  testing::TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 6);
  experiments::RewardPredictionConfig config;
  config.graphs = {toy_graph(toy)};
  config.hidden = 16;
  config.steps = 20;
  const nn::Gnn<float> predictor = experiments::pretrain_reward_predictor(config).network;
  const agents::ScoringEnv graph = toy_graph(toy);
  const auto env = SingleStepEnv::make(graph.model, graph.env_version, graph.scoring);
  agents::SacOptions options;
  options.hidden = 16;
  agents::SacLearner learner(nn::GraphBatch(env->reset(0).obs.copy().view()),
                             env->simulator().num_memories(), options, 1);
  learner.start_from(predictor);
  const std::span<const float> all = predictor.parameters().values();
  for (const nn::Gnn<float>* net : {&learner.critic(0), &learner.critic(1), &learner.target(1)})
    CHECK(std::equal(all.begin(), all.end(), net->parameters().values().begin(),
                     net->parameters().values().end()));
  const auto& layout = predictor.parameters().layout();
  const nn::TensorSpec encoder = layout.tensor(layout.index_of("encoder.weight"));
  const auto& actor = learner.actor().parameters();
  const nn::TensorSpec actor_encoder =
      actor.layout().tensor(actor.layout().index_of("encoder.weight"));
  CHECK(std::equal(all.begin() + static_cast<std::ptrdiff_t>(encoder.offset),
                   all.begin() + static_cast<std::ptrdiff_t>(encoder.offset + encoder.size()),
                   actor.values().begin() + static_cast<std::ptrdiff_t>(actor_encoder.offset)));
}

}  // namespace
}  // namespace memplace
