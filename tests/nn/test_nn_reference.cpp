// The GNN against its PyTorch reference, in the manner of llm.c's test_gpt2: the PyTorch peer
// (bench/peers/gnn_torch.py) computes outputs and gradients for fixed weights on real resnet50
// observations and writes them to tests/data/gnn/reference.json; the C++ network must match.
//
// With MEMPLACE_REGENERATE_GOLDEN=1 the first case rewrites the observation files the peer reads
// (tests/data/gnn/regenerate.sh runs the whole chain).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "agents/nn/categorical.hpp"
#include "agents/nn/gnn.hpp"
#include "base/atomic_file.hpp"
#include "tests/support/nn_fixture.hpp"

namespace memplace {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("gnn reference: the observation fixtures are those of the environments") {
  for (const std::string workload : {"resnet50", "bert-base"}) {
    const std::string json = testing::observations_json(
        workload, testing::fixture_observations(workload), /*memories=*/3);
    const std::string path = testing::fixture_path(workload + ".json");
    if (std::getenv("MEMPLACE_REGENERATE_GOLDEN") != nullptr) {
      write_file_atomically(path, json);
    } else {
      CHECK_MESSAGE(read_text(path) == json, path << " is stale: run tests/data/gnn/regenerate.sh");
    }
  }
}

using Json = nlohmann::json;

// |computed - expected| <= tolerance · max(1, |expected|), elementwise; reports the worst entry.
void check_close(const std::string& what, std::span<const double> computed, const Json& expected,
                 double tolerance) {
  REQUIRE_MESSAGE(computed.size() == expected.size(), what);
  double worst = 0;
  std::size_t worst_at = 0;
  for (std::size_t i = 0; i < computed.size(); ++i) {
    const double e = expected[i].get<double>();
    const double error = std::abs(computed[i] - e) / std::max(1.0, std::abs(e));
    if (error > worst) worst = error, worst_at = i;
  }
  CHECK_MESSAGE(worst <= tolerance, what << "[" << worst_at << "]: relative error " << worst);
}

template <class T>
std::vector<double> to_double(std::span<const T> values) {
  return std::vector<double>(values.begin(), values.end());
}

// The fixture's parameters, in the model's layout (the names and shapes must agree).
template <class T>
nn::ParameterSet<T> fixture_parameters(const nn::GnnConfig& config, const Json& tensors) {
  nn::ParameterSet<T> out(nn::gnn_layout(config));
  REQUIRE(tensors.size() == out.layout().tensors().size());
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    const nn::TensorSpec& spec = out.layout().tensor(t);
    REQUIRE(tensors[t]["name"] == spec.name);
    REQUIRE(tensors[t]["rows"] == spec.rows);
    REQUIRE(tensors[t]["cols"] == spec.cols);
    const std::vector<double> values = tensors[t]["values"];
    std::copy(values.begin(), values.end(), out.tensor(t).begin());
  }
  return out;
}

template <class T>
void check_gradients(const std::string& model, const nn::ParameterSet<T>& gradients,
                     const Json& expected, double tolerance) {
  for (std::size_t t = 0; t < gradients.layout().tensors().size(); ++t) {
    REQUIRE(expected[t]["name"] == gradients.layout().tensor(t).name);
    check_close(model + " gradient " + gradients.layout().tensor(t).name,
                to_double(gradients.tensor(t)), expected[t]["values"], tolerance);
  }
}

// Runs both models of the fixture in precision T and compares every output and gradient.
template <class T>
void check_against_reference(double tolerance) {
  const Json ref = Json::parse(read_text(testing::fixture_path("reference.json")));
  const Json observations = Json::parse(read_text(testing::fixture_path("resnet50.json")));
  nn::GraphBatch batch;
  for (const Json& g : observations["graphs"]) {
    batch.add_graph(g["nodes"].get<std::vector<float>>(), g["num_features"],
                    g["edges"].get<std::vector<std::int64_t>>());
  }
  nn::GnnConfig config{.input_features = ref["config"]["input_features"],
                       .hidden = ref["config"]["hidden"],
                       .conv_layers = ref["config"]["conv_layers"],
                       .memories = ref["config"]["memories"]};
  const auto coefficients = [&](const char* name) {
    std::vector<T> out;
    for (const Json& v : ref["coefficients"][name])
      out.push_back(static_cast<T>(v.get<double>()));
    return out;
  };

  SUBCASE("policy: trunk, policy head and value head") {
    config.value_head = true;
    const nn::Gnn<T> policy(config, fixture_parameters<T>(config, ref["policy"]["parameters"]));
    nn::GnnWorkspace<T> ws;
    policy.forward(batch, ws);
    check_close("embeddings", to_double(ws.embeddings()), ref["policy"]["embeddings"], tolerance);
    check_close("logits", to_double(ws.logits()), ref["policy"]["logits"], tolerance);
    check_close("values", to_double(ws.values()), ref["policy"]["values"], tolerance);
    const std::vector<T> dlogits = coefficients("logits"), dvalues = coefficients("values");
    nn::ParameterSet<T> gradients = policy.zero_gradients();
    policy.backward(batch, ws, {.logits = dlogits, .values = dvalues}, gradients);
    check_gradients("policy", gradients, ref["policy"]["gradients"], tolerance);
  }
  SUBCASE("critic: trunk and Q head over five action samples") {
    config.policy_head = false;
    config.q_head = true;
    const nn::Gnn<T> critic(config, fixture_parameters<T>(config, ref["critic"]["parameters"]));
    const std::vector<std::uint32_t> graphs = ref["q_samples"]["graph"];
    std::vector<std::uint8_t> actions;
    for (const Json& sample : ref["q_samples"]["actions"]) {
      for (const Json& a : sample)
        actions.push_back(a.get<std::uint8_t>());
    }
    const nn::QSamples samples{graphs, actions};
    nn::GnnWorkspace<T> ws;
    critic.forward(batch, ws, samples);
    check_close("critic embeddings", to_double(ws.embeddings()), ref["critic"]["embeddings"],
                tolerance);
    check_close("q", to_double(ws.q()), ref["critic"]["q"], tolerance);
    const std::vector<T> dq = coefficients("q");
    nn::ParameterSet<T> gradients = critic.zero_gradients();
    critic.backward(batch, ws, {.q = dq}, gradients, samples);
    check_gradients("critic", gradients, ref["critic"]["gradients"], tolerance);
  }
}

TEST_CASE("gnn reference: log-probabilities and entropies match PyTorch's") {
  const Json ref = Json::parse(read_text(testing::fixture_path("reference.json")));
  const Json& sampling = ref["sampling"];
  const std::size_t rows = sampling["rows"], memories = sampling["memories"];
  // The rows are the policy's logits for graph 0, read as (2N x M): the first rows*M values.
  const std::vector<double> all_logits = ref["policy"]["logits"];
  const std::span<const double> logits(all_logits.data(), rows * memories);
  const std::vector<std::uint8_t> actions = sampling["actions"];
  CHECK(nn::log_prob<double>(logits, rows, memories, actions) ==
        doctest::Approx(sampling["log_prob_sum"].get<double>()).epsilon(1e-12));
  CHECK(nn::entropy<double>(logits, rows, memories) ==
        doctest::Approx(sampling["entropy_sum"].get<double>()).epsilon(1e-12));
  std::vector<double> dlog(rows * memories), dent(rows * memories);
  nn::log_prob_backward<double>(logits, rows, memories, actions, 1.0, dlog);
  nn::entropy_backward<double>(logits, rows, memories, 1.0, dent);
  check_close("log_prob gradient", dlog, sampling["log_prob_grad"], 1e-12);
  check_close("entropy gradient", dent, sampling["entropy_grad"], 1e-12);
}

TEST_CASE("gnn reference: float matches PyTorch to 1e-4") {
  check_against_reference<float>(1e-4);
}

TEST_CASE("gnn reference: double matches PyTorch to 1e-10") {
  check_against_reference<double>(1e-10);
}

}  // namespace
}  // namespace memplace
