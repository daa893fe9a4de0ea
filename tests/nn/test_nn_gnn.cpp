// The GNN's interface: configs, layouts, bad input, batching and determinism.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "agents/nn/gnn.hpp"
#include "base/rng.hpp"
#include "env/registry.hpp"

namespace memplace {
namespace {

nn::GraphBatch resnet50_batch() {
  const auto env = make("memplace/single-step/resnet50-v0");
  return nn::GraphBatch(env->reset(0).obs);
}

nn::GnnConfig small_config() {
  return nn::GnnConfig{.input_features = 23, .hidden = 16, .conv_layers = 2, .memories = 3};
}

TEST_CASE("nn gnn: a config survives its text form and bad text is named") {
  nn::GnnConfig config = small_config();
  config.value_head = true;
  CHECK(config.to_string() ==
        "input_features=23 hidden=16 conv_layers=2 memories=3 heads=policy,value");
  CHECK(nn::GnnConfig::parse(config.to_string()) == config);
  CHECK_THROWS_WITH_AS(nn::GnnConfig::parse("hidden=16"), doctest::Contains("lacks"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      nn::GnnConfig::parse("input_features=23 hidden=x conv_layers=2 memories=3 heads=policy"),
      doctest::Contains("hidden=x is not a whole number"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      nn::GnnConfig::parse("input_features=23 hidden=8 conv_layers=2 memories=3 heads=actor"),
      doctest::Contains("unknown head 'actor'"), std::invalid_argument);
  nn::GnnConfig no_heads = small_config();
  no_heads.policy_head = false;
  CHECK_THROWS_WITH_AS(no_heads.validate(), doctest::Contains("at least one head"),
                       std::invalid_argument);
  nn::GnnConfig too_many = small_config();
  too_many.memories = 9;
  CHECK_THROWS_WITH_AS(too_many.validate(), doctest::Contains("memories"), std::invalid_argument);
}

TEST_CASE("nn gnn: the layout lists the tensors of docs/gnn.md in order") {
  nn::GnnConfig config = small_config();
  config.q_head = true;
  const auto layout = nn::gnn_layout(config);
  std::vector<std::string> names;
  for (const auto& t : layout->tensors())
    names.push_back(t.name);
  const std::vector<std::string> expected = {"encoder.weight",
                                             "encoder.bias",
                                             "conv0.weight",
                                             "conv0.bias",
                                             "conv0.norm.gain",
                                             "conv0.norm.bias",
                                             "conv1.weight",
                                             "conv1.bias",
                                             "conv1.norm.gain",
                                             "conv1.norm.bias",
                                             "policy.hidden.weight",
                                             "policy.hidden.bias",
                                             "policy.out.weight",
                                             "policy.out.bias",
                                             "q.node.weight",
                                             "q.node.bias",
                                             "q.weight_action",
                                             "q.activation_action",
                                             "q.input_action",
                                             "q.hidden.weight",
                                             "q.hidden.bias",
                                             "q.out.weight",
                                             "q.out.bias"};
  CHECK(names == expected);
  CHECK(layout->tensor(layout->index_of("conv1.weight")).rows == 48);
  CHECK(layout->tensor(layout->index_of("policy.out.weight")).cols == 6);
  CHECK_THROWS_AS(layout->index_of("value.out.bias"), std::out_of_range);
}

TEST_CASE("nn gnn: initialisation follows the seed and the documented bounds") {
  const nn::Gnn<float> a(small_config(), 7), b(small_config(), 7), c(small_config(), 8);
  CHECK(std::equal(a.parameters().values().begin(), a.parameters().values().end(),
                   b.parameters().values().begin()));
  CHECK_FALSE(std::equal(a.parameters().values().begin(), a.parameters().values().end(),
                         c.parameters().values().begin()));
  const auto encoder = a.parameters().tensor("encoder.weight");
  const float bound = 1.0f / std::sqrt(23.0f);
  CHECK(std::all_of(encoder.begin(), encoder.end(), [&](float w) { return std::abs(w) <= bound; }));
  CHECK(*std::max_element(encoder.begin(), encoder.end()) > 0.8f * bound);
  const auto gain = a.parameters().tensor("conv1.norm.gain");
  CHECK(std::all_of(gain.begin(), gain.end(), [](float g) { return g == 1.0f; }));
}

TEST_CASE("nn gnn: bad batches, samples and gradients are refused with a message") {
  nn::GnnConfig config = small_config();
  config.q_head = true;
  const nn::Gnn<float> model(config, 1);
  nn::GnnWorkspace<float> ws;
  nn::GraphBatch wrong_features;
  wrong_features.add_graph(std::vector<float>(10, 0.f), 5, std::vector<std::int64_t>{0, 1});
  CHECK_THROWS_WITH_AS(model.forward(wrong_features, ws),
                       doctest::Contains("5 node features, the model expects 23"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(model.forward(nn::GraphBatch(), ws), doctest::Contains("empty"),
                       std::invalid_argument);

  nn::GraphBatch bad;
  CHECK_THROWS_WITH_AS(
      bad.add_graph(std::vector<float>(6, 0.f), 3, std::vector<std::int64_t>{0, 2}),
      doctest::Contains("edge 0 (0 -> 2)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(bad.add_graph(std::vector<float>(7, 0.f), 3, {}),
                       doctest::Contains("whole number of rows"), std::invalid_argument);

  const nn::GraphBatch batch = resnet50_batch();
  const std::vector<std::uint32_t> graph = {0};
  std::vector<std::uint8_t> actions(2 * 57, 2);
  CHECK_THROWS_WITH_AS(model.forward(batch, ws, {graph, std::span(actions).first(10)}),
                       doctest::Contains("10 action entries, expected 114"), std::invalid_argument);
  actions[5] = 3;
  CHECK_THROWS_WITH_AS(model.forward(batch, ws, {graph, actions}),
                       doctest::Contains("entry 5 is 3, outside 0..2"), std::invalid_argument);
  actions[5] = 0;
  const std::vector<std::uint32_t> graph_one = {1};
  CHECK_THROWS_WITH_AS(model.forward(batch, ws, {graph_one, actions}),
                       doctest::Contains("names graph 1"), std::invalid_argument);

  model.forward(batch, ws, {graph, actions});
  nn::ParameterSet<float> gradients = model.zero_gradients();
  const std::vector<float> short_logits(5, 1.f);
  CHECK_THROWS_WITH_AS(model.backward(batch, ws, {.logits = short_logits}, gradients),
                       doctest::Contains("dlogits has 5 values, expected 342"),
                       std::invalid_argument);
  nn::ParameterSet<float> other = nn::Gnn<float>(small_config(), 1).zero_gradients();
  const std::vector<float> dq = {1.f};
  CHECK_THROWS_WITH_AS(model.backward(batch, ws, {.q = dq}, other, {graph, actions}),
                       doctest::Contains("layout"), std::invalid_argument);
  CHECK_THROWS_AS(nn::Gnn<float>(small_config(), model.parameters()), std::invalid_argument);
}

TEST_CASE("nn gnn: a graph's outputs do not depend on the rest of its batch") {
  nn::GnnConfig config = small_config();
  config.value_head = true;
  const nn::Gnn<double> model(config, 3);
  const auto env = make("memplace/single-step/resnet50-v0");
  const Observation first = env->reset(0).obs.copy();
  const std::vector<std::int64_t> all_sram(2 * 57, 0);
  const Observation second = env->step(all_sram).obs.copy();
  const std::vector<ObservationView> both = {first.view(), second.view()};
  nn::GnnWorkspace<double> ws_both, ws_one;
  model.forward(nn::GraphBatch(both), ws_both);
  model.forward(nn::GraphBatch(second.view()), ws_one);
  const auto logits_both = ws_both.logits(), logits_one = ws_one.logits();
  REQUIRE(logits_both.size() == 2 * logits_one.size());
  for (std::size_t i = 0; i < logits_one.size(); ++i)
    CHECK(logits_both[logits_one.size() + i] == doctest::Approx(logits_one[i]).epsilon(1e-12));
  CHECK(ws_both.values()[1] == doctest::Approx(ws_one.values()[0]).epsilon(1e-12));
  CHECK(ws_both.values()[0] != doctest::Approx(ws_one.values()[0]).epsilon(1e-6));
}

TEST_CASE("nn gnn: each Q sample is scored as if alone, and the trunk is shared") {
  nn::GnnConfig config = small_config();
  config.policy_head = false;
  config.q_head = true;
  const nn::Gnn<double> critic(config, 5);
  const nn::GraphBatch batch = resnet50_batch();
  Rng rng(9);
  const std::size_t kSamples = 6, kActions = 2 * batch.num_nodes();
  std::vector<std::uint8_t> actions(kSamples * kActions);
  for (auto& a : actions)
    a = static_cast<std::uint8_t>(rng.uniform(3));
  const std::vector<std::uint32_t> graphs(kSamples, 0);
  nn::GnnWorkspace<double> ws;
  critic.forward(batch, ws, {graphs, actions});
  const std::vector<double> together(ws.q().begin(), ws.q().end());
  for (std::size_t b = 0; b < kSamples; ++b) {
    critic.forward(
        batch, ws,
        {std::span(graphs).first(1), std::span(actions).subspan(b * kActions, kActions)});
    CHECK(ws.q()[0] == doctest::Approx(together[b]).epsilon(1e-12));
  }
  // The action matters: different samples get different values.
  CHECK(together[0] != doctest::Approx(together[1]).epsilon(1e-9));
}

// Forward and backward of 8 models on 8 observations, in an OpenMP loop with `threads` threads;
// returns every output and gradient, concatenated.
std::vector<float> parallel_run(int threads) {
  const auto env = make("memplace/single-step/resnet50-v0");
  const Observation obs = env->reset(0).obs.copy();
  const nn::GraphBatch batch(obs.view());
  nn::GnnConfig config = small_config();
  config.value_head = true;
  constexpr int kJobs = 8;
  std::vector<std::vector<float>> results(kJobs);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
#pragma omp parallel for schedule(dynamic)
  for (int job = 0; job < kJobs; ++job) {
    const nn::Gnn<float> model(config, static_cast<std::uint64_t>(job));
    nn::GnnWorkspace<float> ws;
    model.forward(batch, ws);
    std::vector<float> dlogits(ws.logits().begin(), ws.logits().end());
    const std::vector<float> dvalues(ws.values().begin(), ws.values().end());
    nn::ParameterSet<float> gradients = model.zero_gradients();
    model.backward(batch, ws, {.logits = dlogits, .values = dvalues}, gradients);
    results[job] = dlogits;
    results[job].insert(results[job].end(), gradients.values().begin(), gradients.values().end());
  }
  omp_set_num_threads(saved);
  std::vector<float> all;
  for (const auto& r : results)
    all.insert(all.end(), r.begin(), r.end());
  return all;
}

TEST_CASE("nn gnn: results are bit-identical on 1 and 2 threads") {
  const std::vector<float> one = parallel_run(1), two = parallel_run(2);
  REQUIRE(one.size() == two.size());
  CHECK(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)) == 0);
}

}  // namespace
}  // namespace memplace
