// Every layer of the GNN, and the whole policy and critic, against central finite differences in
// double precision (docs/gnn.md derives each backward).
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "agents/nn/gnn.hpp"
#include "agents/nn/layers.hpp"
#include "base/rng.hpp"
#include "tests/support/nn_gradient_check.hpp"

namespace memplace {
namespace {

using nn::Buffer;
using testing::check_gradient;

std::vector<double> random_values(Rng& rng, std::size_t n, double low = -1, double high = 1) {
  std::vector<double> v(n);
  for (double& x : v)
    x = low + (high - low) * rng.uniform01();
  return v;
}

// Σ coefficients ⊙ y.
double weighted_sum(std::span<const double> y, std::span<const double> coefficients) {
  return std::inner_product(y.begin(), y.end(), coefficients.begin(), 0.0);
}

// A small random DAG over `nodes` nodes (edges only from lower to higher numbers, no duplicates,
// some nodes without producers or consumers), as 2 x E.
std::vector<std::int64_t> random_dag(Rng& rng, std::size_t nodes) {
  std::vector<std::int64_t> sources, targets;
  for (std::size_t t = 1; t < nodes; ++t) {
    for (std::size_t s = 0; s < t; ++s) {
      if (rng.uniform01() < 0.35) sources.push_back(s), targets.push_back(t);
    }
  }
  sources.insert(sources.end(), targets.begin(), targets.end());
  return sources;
}

TEST_CASE("nn gradients: linear layer") {
  Rng rng(1);
  const std::size_t rows = 5, in = 4, out = 3;
  auto x = random_values(rng, rows * in), w = random_values(rng, in * out);
  auto b = random_values(rng, out), r = random_values(rng, rows * out);
  std::vector<double> y(rows * out);
  auto loss = [&] {
    nn::linear_forward<double>(y, x, w, b, rows, in, out);
    return weighted_sum(y, r);
  };
  std::vector<double> dx(x.size()), dw(w.size()), db(b.size());
  loss();
  nn::linear_backward<double>(dx, dw, db, r, x, w, rows, in, out);
  check_gradient("dx", x, dx, loss);
  check_gradient("dweight", w, dw, loss);
  check_gradient("dbias", b, db, loss);
}

TEST_CASE("nn gradients: relu and tanh") {
  Rng rng(2);
  auto x = random_values(rng, 40), r = random_values(rng, 40);
  for (double& v : x)
    v += v > 0 ? 0.05 : -0.05;  // keep clear of relu's kink
  std::vector<double> y(x.size());
  for (const bool relu : {true, false}) {
    auto loss = [&] {
      relu ? nn::relu_forward<double>(y, x) : nn::tanh_forward<double>(y, x);
      return weighted_sum(y, r);
    };
    loss();
    std::vector<double> dx(x.size());
    relu ? nn::relu_backward<double>(dx, r, y) : nn::tanh_backward<double>(dx, r, y);
    check_gradient(relu ? "relu" : "tanh", x, dx, loss);
  }
}

TEST_CASE("nn gradients: layer norm") {
  Rng rng(3);
  const std::size_t rows = 4, cols = 7;
  auto x = random_values(rng, rows * cols, -2, 2), gain = random_values(rng, cols, 0.5, 1.5);
  auto bias = random_values(rng, cols), r = random_values(rng, rows * cols);
  std::vector<double> y(rows * cols), mean(rows), rstd(rows);
  auto loss = [&] {
    nn::layernorm_forward<double>(y, mean, rstd, x, gain, bias, rows, cols);
    return weighted_sum(y, r);
  };
  loss();
  std::vector<double> dx(x.size()), dgain(cols), dbias(cols);
  nn::layernorm_backward<double>(dx, dgain, dbias, r, x, mean, rstd, gain, rows, cols);
  check_gradient("dx", x, dx, loss);
  check_gradient("dgain", gain, dgain, loss);
  check_gradient("dbias", bias, dbias, loss);
}

TEST_CASE("nn gradients: bidirectional gather and mean/max pooling over a graph batch") {
  Rng rng(4);
  nn::GraphBatch batch;
  for (const std::size_t nodes : {6, 1, 5}) {
    batch.add_graph(std::vector<float>(nodes, 0.5f), 1, random_dag(rng, nodes));
  }
  const std::size_t n = batch.num_nodes(), cols = 3;
  auto h = random_values(rng, n * cols), r = random_values(rng, n * 3 * cols);
  std::vector<double> c(n * 3 * cols);
  auto gather_loss = [&] {
    nn::bidirectional_gather_forward<double>(c, h, batch.producers(), batch.consumers(), n, cols);
    return weighted_sum(c, r);
  };
  gather_loss();
  std::vector<double> dh(h.size());
  nn::bidirectional_gather_backward<double>(dh, r, batch.producers(), batch.consumers(), n, cols);
  check_gradient("gather dh", h, dh, gather_loss);

  const std::size_t graphs = batch.num_graphs();
  auto rp = random_values(rng, graphs * 2 * cols);
  std::vector<double> pooled(graphs * 2 * cols);
  std::vector<std::uint32_t> argmax(graphs * cols);
  auto pool_loss = [&] {
    nn::mean_max_pool_forward<double>(pooled, argmax, h, batch.offsets(), cols);
    return weighted_sum(pooled, rp);
  };
  pool_loss();
  std::vector<double> dpool(h.size());
  nn::mean_max_pool_backward<double>(dpool, rp, argmax, batch.offsets(), cols);
  check_gradient("pool dh", h, dpool, pool_loss);
}

// A batch of three random graphs with `features` features per node.
nn::GraphBatch random_batch(Rng& rng, std::size_t features) {
  nn::GraphBatch batch;
  for (const std::size_t nodes : {7, 3, 5}) {
    std::vector<float> x(nodes * features);
    for (float& v : x)
      v = static_cast<float>(rng.uniform01());
    batch.add_graph(x, features, random_dag(rng, nodes));
  }
  return batch;
}

// Checks every parameter of `model` against finite differences of
// L = Σ R_logits ⊙ logits + Σ R_values ⊙ values + Σ R_q ⊙ q.
void check_model(nn::GnnConfig config, std::uint64_t seed) {
  Rng rng(seed);
  const nn::GraphBatch batch = random_batch(rng, config.input_features);
  nn::Gnn<double> model(config, seed);
  // Perturb the layer-norm parameters away from 1 and 0 so their gradients are exercised.
  for (std::size_t t = 0; t < model.parameters().layout().tensors().size(); ++t) {
    if (model.parameters().layout().tensor(t).name.find(".norm.") == std::string::npos) continue;
    for (double& v : model.parameters().tensor(t))
      v += 0.2 * (rng.uniform01() - 0.5);
  }
  std::vector<std::uint32_t> sample_graph = {0, 0, 2, 1};
  std::vector<std::uint8_t> actions;
  for (const std::uint32_t g : sample_graph) {
    for (std::size_t i = 0; i < 2 * batch.graph_size(g); ++i)
      actions.push_back(static_cast<std::uint8_t>(rng.uniform(config.memories)));
  }
  const nn::QSamples samples{sample_graph, actions};
  const std::size_t M = config.memories;
  const auto r_logits = random_values(rng, batch.num_nodes() * 2 * M);
  const auto r_values = random_values(rng, batch.num_graphs());
  const auto r_q = random_values(rng, sample_graph.size());

  nn::GnnWorkspace<double> ws;
  auto loss = [&] {
    model.forward(batch, ws, samples);
    double total = 0;
    if (config.policy_head) total += weighted_sum(ws.logits(), r_logits);
    if (config.value_head) total += weighted_sum(ws.values(), r_values);
    if (config.q_head) total += weighted_sum(ws.q(), r_q);
    return total;
  };
  loss();
  nn::ParameterSet<double> gradients = model.zero_gradients();
  nn::OutputGradients<double> d;
  if (config.policy_head) d.logits = r_logits;
  if (config.value_head) d.values = r_values;
  if (config.q_head) d.q = r_q;
  model.backward(batch, ws, d, gradients, samples);
  for (std::size_t t = 0; t < gradients.layout().tensors().size(); ++t) {
    const std::string& name = gradients.layout().tensor(t).name;
    CAPTURE(name);
    check_gradient(name, model.parameters().tensor(t), gradients.tensor(t), loss);
  }
}

TEST_CASE("nn gradients: the whole policy (policy and value heads)") {
  nn::GnnConfig config{.input_features = 5, .hidden = 6, .conv_layers = 2, .memories = 3};
  config.value_head = true;
  check_model(config, 11);
}

TEST_CASE("nn gradients: the whole critic (Q head)") {
  nn::GnnConfig config{.input_features = 4, .hidden = 5, .conv_layers = 3, .memories = 3};
  config.policy_head = false;
  config.q_head = true;
  check_model(config, 12);
}

TEST_CASE("nn gradients: a value critic with two memories and no convolution") {
  nn::GnnConfig config{.input_features = 3, .hidden = 4, .conv_layers = 0, .memories = 2};
  config.policy_head = false;
  config.value_head = true;
  check_model(config, 13);
}

}  // namespace
}  // namespace memplace
