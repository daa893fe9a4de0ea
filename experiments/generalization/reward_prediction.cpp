#include "experiments/generalization/reward_prediction.hpp"

#include <algorithm>
#include <memory>

#include "agents/nn/adam.hpp"
#include "agents/nn/graph_batch.hpp"
#include "agents/node_features.hpp"
#include "base/errors.hpp"
#include "base/rng.hpp"
#include "env/single_step_env.hpp"
#include "model/references.hpp"

namespace memplace::experiments {
namespace {

// The labels of the random streams under the config's seed.
constexpr std::uint64_t kTrainStream = 0x7270, kHeldOutStream = 0x686f;

struct Graph {
  std::unique_ptr<SingleStepEnv> env;
  nn::GraphBatch batch;
  Mapping compiler;
};

// `count` mappings of a graph and their targets, appended: half uniform, half the compiler's
// with up to a tenth of the tensors moved.
void draw(Graph& g, std::size_t count, double reward_scale, Rng& rng,
          std::vector<std::uint8_t>& actions, std::vector<double>& targets) {
  const std::size_t tensors = g.compiler.size();
  const std::size_t memories = g.env->simulator().num_memories();
  std::vector<std::int64_t> action(tensors);
  for (std::size_t k = 0; k < count; ++k) {
    if (k % 2 == 0) {
      for (std::int64_t& a : action)
        a = static_cast<std::int64_t>(rng.uniform(memories));
    } else {
      std::copy(g.compiler.begin(), g.compiler.end(), action.begin());
      const std::uint64_t moves = 1 + rng.uniform(std::max<std::size_t>(1, tensors / 10));
      for (std::uint64_t m = 0; m < moves; ++m)
        action[rng.uniform(tensors)] = static_cast<std::int64_t>(rng.uniform(memories));
    }
    g.env->reset(0);
    targets.push_back(reward_scale * g.env->step(action).reward);
    for (const std::int64_t a : action)
      actions.push_back(static_cast<std::uint8_t>(a));
  }
}

}  // namespace

RewardPrediction pretrain_reward_predictor(const RewardPredictionConfig& config) {
  if (config.graphs.empty()) throw InputError("reward prediction: no graphs to learn on");
  std::vector<Graph> graphs;
  for (const agents::ScoringEnv& scoring : config.graphs) {
    Graph g;
    g.env = SingleStepEnv::make(scoring.model, scoring.env_version, scoring.scoring);
    g.batch = nn::GraphBatch(
        agents::with_node_features(g.env->reset(0).obs.copy(), g.env->simulator(), config.features)
            .view());
    g.compiler = compiler_mapping(g.env->simulator());
    if (!graphs.empty() &&
        g.env->simulator().num_memories() != graphs.front().env->simulator().num_memories())
      throw InputError("reward prediction: " + scoring.model.hardware +
                       " has another number of memories than " +
                       config.graphs.front().model.hardware);
    graphs.push_back(std::move(g));
  }
  const nn::GnnConfig net_config{.input_features = graphs.front().batch.num_features(),
                                 .hidden = config.hidden,
                                 .conv_layers = config.conv_layers,
                                 .memories = graphs.front().env->simulator().num_memories(),
                                 .policy_head = false,
                                 .q_head = true};
  RewardPrediction out{nn::Gnn<float>(net_config, config.seed), 0, 0, 0};
  nn::Gnn<float>& net = out.network;
  nn::Adam<float> adam(net.parameters().shared_layout(),
                       {.learning_rate = config.learning_rate, .max_grad_norm = 1.0});
  nn::ParameterSet<float> grads = net.zero_gradients();
  nn::GnnWorkspace<float> ws;
  Rng rng(derive_seed(config.seed, {kTrainStream}));
  std::vector<std::uint8_t> actions;
  std::vector<double> targets;
  std::vector<float> dq;
  const std::uint64_t tenth = std::max<std::uint64_t>(1, config.steps / 10);
  for (std::uint64_t step = 0; step < config.steps; ++step) {
    Graph& g = graphs[step % graphs.size()];
    actions.clear();
    targets.clear();
    draw(g, config.minibatch, config.reward_scale, rng, actions, targets);
    const std::vector<std::uint32_t> sample_graph(config.minibatch, 0);
    const nn::QSamples samples{sample_graph, actions};
    net.forward(g.batch, ws, samples);
    dq.assign(config.minibatch, 0.f);
    double loss = 0;
    for (std::size_t b = 0; b < config.minibatch; ++b) {
      const double error = static_cast<double>(ws.q()[b]) - targets[b];
      loss += error * error / static_cast<double>(config.minibatch);
      dq[b] = static_cast<float>(2 * error / static_cast<double>(config.minibatch));
    }
    if (step < tenth) out.first_loss += loss / static_cast<double>(tenth);
    if (step >= config.steps - tenth) out.last_loss += loss / static_cast<double>(tenth);
    grads.set_zero();
    net.backward(g.batch, ws, {.q = dq}, grads, samples);
    adam.step(net.parameters(), grads);
  }
  // Held out: fresh mappings of every graph.
  Rng held_out(derive_seed(config.seed, {kHeldOutStream}));
  std::vector<double> predicted, truth;
  for (Graph& g : graphs) {
    actions.clear();
    targets.clear();
    draw(g, 64, config.reward_scale, held_out, actions, targets);
    const std::vector<std::uint32_t> sample_graph(64, 0);
    net.forward(g.batch, ws, {sample_graph, actions});
    predicted.insert(predicted.end(), ws.q().begin(), ws.q().end());
    truth.insert(truth.end(), targets.begin(), targets.end());
  }
  double mean = 0;
  for (const double t : truth)
    mean += t / static_cast<double>(truth.size());
  double sse = 0, sst = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    sse += (predicted[i] - truth[i]) * (predicted[i] - truth[i]);
    sst += (truth[i] - mean) * (truth[i] - mean);
  }
  out.held_out_r2 = sst > 0 ? 1 - sse / sst : 0;
  return out;
}

}  // namespace memplace::experiments
