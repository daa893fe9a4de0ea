// SAC's actor gradient, piece by piece: the Q head's single-move values against full forward
// passes, and both estimators against the exact gradient of E_π[Q] on an enumerable problem.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "agents/nn/categorical.hpp"
#include "agents/nn/gnn.hpp"
#include "agents/nn/policy_gradient.hpp"
#include "agents/nn/q_moves.hpp"
#include "base/rng.hpp"

namespace memplace {
namespace {

// A DAG on `nodes` nodes (edges i -> j, i < j, each with probability 0.4, plus a chain so every
// node but the first has a producer), as 2 x E (sources, then targets).
std::vector<std::int64_t> dag(Rng& rng, std::size_t nodes) {
  std::vector<std::int64_t> sources, targets;
  for (std::size_t j = 1; j < nodes; ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (i + 1 == j || rng.uniform01() < 0.4) {
        sources.push_back(static_cast<std::int64_t>(i));
        targets.push_back(static_cast<std::int64_t>(j));
      }
    }
  }
  sources.insert(sources.end(), targets.begin(), targets.end());
  return sources;
}

nn::GraphBatch two_graphs(Rng& rng, std::size_t features) {
  nn::GraphBatch batch;
  for (const std::size_t nodes : {7, 4}) {
    std::vector<float> x(nodes * features);
    for (float& v : x)
      v = static_cast<float>(rng.uniform01());
    batch.add_graph(x, features, dag(rng, nodes));
  }
  return batch;
}

template <class T>
void check_single_moves(double tolerance) {
  Rng rng(11);
  const nn::GraphBatch batch = two_graphs(rng, 5);
  const std::size_t M = 3;
  nn::GnnConfig config{.input_features = 5, .hidden = 8, .conv_layers = 2, .memories = M};
  config.policy_head = false;
  config.q_head = true;
  const nn::Gnn<T> critic(config, 3);
  // Three samples: graph 0, graph 1, graph 1 (so the graph's first row is not row 0).
  const std::vector<std::uint32_t> graph = {0, 1, 1};
  std::vector<std::uint8_t> actions;
  for (std::uint32_t g : graph) {
    for (std::size_t t = 0; t < 2 * batch.graph_size(g); ++t)
      actions.push_back(static_cast<std::uint8_t>(rng.uniform(M)));
  }
  nn::GnnWorkspace<T> ws;
  critic.forward(batch, ws, {graph, actions});
  const std::vector<T> q(ws.q().begin(), ws.q().end());
  // Samples 1 and 2 only: a range that does not start at 0.
  std::vector<T> moves(2 * (2 * 4 * M));
  nn::QMovesScratch<T> scratch;
  nn::q_single_moves<T>(critic, batch, ws, {graph, actions}, 1, 2, moves, scratch);

  nn::GnnWorkspace<T> one;
  std::size_t checked = 0;
  for (std::size_t b = 1; b < 3; ++b) {
    const std::size_t n = batch.graph_size(graph[b]);
    const std::size_t offset = 2 * batch.graph_size(0);  // sample 0's actions come first
    const std::size_t start = offset + (b - 1) * 2 * n;
    for (std::size_t t = 0; t < 2 * n; ++t) {
      for (std::size_t m = 0; m < M; ++m) {
        std::vector<std::uint8_t> moved(
            actions.begin() + static_cast<std::ptrdiff_t>(start),
            actions.begin() + static_cast<std::ptrdiff_t>(start + 2 * n));
        moved[t] = static_cast<std::uint8_t>(m);
        const std::vector<std::uint32_t> g1 = {graph[b]};
        critic.forward(batch, one, {g1, moved});
        const T got = moves[(b - 1) * 2 * n * M + t * M + m];
        CAPTURE(b);
        CAPTURE(t);
        CAPTURE(m);
        CHECK(std::abs(static_cast<double>(got - one.q()[0])) <= tolerance);
        ++checked;
      }
    }
    // The tensor's own memory gives the sample's Q back.
    CHECK(std::abs(static_cast<double>(moves[(b - 1) * 2 * n * M + actions[start]] - q[b])) <=
          tolerance);
  }
  CHECK(checked == 2 * 2 * 4 * M);
}

TEST_CASE("agents sac: Q of every single-tensor move equals a full Q-head pass") {
  check_single_moves<double>(1e-12);
  check_single_moves<float>(1e-5);
}

TEST_CASE("agents sac: q_single_moves refuses a critic without Q head or a bad range") {
  Rng rng(2);
  const nn::GraphBatch batch = two_graphs(rng, 5);
  nn::GnnConfig config{.input_features = 5, .hidden = 4, .conv_layers = 1, .memories = 2};
  config.q_head = true;
  const nn::Gnn<float> critic(config, 1);
  const std::vector<std::uint32_t> graph = {1};
  const std::vector<std::uint8_t> actions(8, 0);
  nn::GnnWorkspace<float> ws;
  critic.forward(batch, ws, {graph, actions});
  nn::QMovesScratch<float> scratch;
  std::vector<float> out(16);
  CHECK_THROWS_WITH_AS(
      nn::q_single_moves<float>(critic, batch, ws, {graph, actions}, 1, 1, out, scratch),
      doctest::Contains("not those of the last forward pass"), std::invalid_argument);
  std::vector<float> wrong(15);
  CHECK_THROWS_WITH_AS(
      nn::q_single_moves<float>(critic, batch, ws, {graph, actions}, 0, 1, wrong, scratch),
      doctest::Contains("expected 16"), std::invalid_argument);
  config.q_head = false;
  const nn::Gnn<float> policy(config, 1);
  CHECK_THROWS_WITH_AS(
      nn::q_single_moves<float>(policy, batch, ws, {graph, actions}, 0, 1, out, scratch),
      doctest::Contains("no Q head"), std::invalid_argument);
}

// Every action of `rows` tensors over M memories, as a base-M counter.
std::vector<std::vector<std::uint8_t>> all_actions(std::size_t rows, std::size_t M) {
  std::vector<std::vector<std::uint8_t>> out;
  std::vector<std::uint8_t> a(rows, 0);
  while (true) {
    out.push_back(a);
    std::size_t i = 0;
    while (i < rows && ++a[i] == M)
      a[i++] = 0;
    if (i == rows) return out;
  }
}

TEST_CASE("agents sac: both actor estimators average to the exact gradient of E_pi[Q]") {
  const std::size_t rows = 4, M = 3;
  Rng rng(5);
  std::vector<double> logits(rows * M);
  for (double& z : logits)
    z = 4 * rng.uniform01() - 2;
  const auto actions = all_actions(rows, M);
  // An arbitrary, non-additive Q over the 81 actions.
  std::vector<double> q(actions.size());
  for (double& v : q)
    v = 10 * rng.uniform01() - 5;
  auto index = [&](const std::vector<std::uint8_t>& a) {
    std::size_t i = 0;
    for (std::size_t r = rows; r-- > 0;)
      i = i * M + a[r];
    return i;
  };
  std::vector<double> prob(actions.size());
  for (std::size_t i = 0; i < actions.size(); ++i)
    prob[i] = std::exp(nn::log_prob<double>(logits, rows, M, actions[i]));

  // Exact: ∇ Σ_a π(a) Q(a) = Σ_a π(a) Q(a) ∇ log π(a).
  std::vector<double> exact(rows * M, 0.0);
  for (std::size_t i = 0; i < actions.size(); ++i)
    nn::log_prob_backward<double>(logits, rows, M, actions[i], prob[i] * q[i], exact);

  // Local expectation: its expectation over a ~ π, enumerated.
  std::vector<double> local(rows * M, 0.0);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    std::vector<double> moves(rows * M);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t m = 0; m < M; ++m) {
        std::vector<std::uint8_t> moved = actions[i];
        moved[r] = static_cast<std::uint8_t>(m);
        moves[r * M + m] = q[index(moved)];
      }
    }
    nn::local_expectation_backward<double>(logits, rows, M, moves, prob[i], local);
  }

  // Score function with a leave-one-out baseline over K = 2 independent samples, enumerated.
  std::vector<double> score(rows * M, 0.0);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    for (std::size_t j = 0; j < actions.size(); ++j) {
      std::vector<std::uint8_t> pair = actions[i];
      pair.insert(pair.end(), actions[j].begin(), actions[j].end());
      const std::vector<double> returns = {q[i], q[j]};
      nn::score_function_backward<double>(logits, rows, M, pair, returns, prob[i] * prob[j], score);
    }
  }
  for (std::size_t k = 0; k < rows * M; ++k) {
    CAPTURE(k);
    CHECK(local[k] == doctest::Approx(exact[k]).epsilon(1e-10));
    CHECK(score[k] == doctest::Approx(exact[k]).epsilon(1e-10));
  }
  CHECK_THROWS_WITH_AS(nn::score_function_backward<double>(logits, rows, M, actions[0],
                                                           std::vector<double>{1.0}, 1.0, score),
                       doctest::Contains("at least 2"), std::invalid_argument);
}

}  // namespace
}  // namespace memplace
