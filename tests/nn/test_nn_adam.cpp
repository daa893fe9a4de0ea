// Adam: the update by hand, clipping, convergence, and what it refuses.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "agents/nn/adam.hpp"

namespace memplace::nn {
namespace {

// Three parameters: "w" (1 x 2) and "b" (1 x 1).
std::shared_ptr<const ParameterLayout> toy_layout() {
  auto layout = std::make_shared<ParameterLayout>();
  layout->add("w", 1, 2);
  layout->add("b", 1, 1);
  return layout;
}

template <class T>
ParameterSet<T> make_set(const std::shared_ptr<const ParameterLayout>& layout,
                         const std::vector<double>& values) {
  ParameterSet<T> set(layout);
  for (std::size_t i = 0; i < values.size(); ++i) {
    set.values()[i] = static_cast<T>(values[i]);
  }
  return set;
}

std::vector<double> to_vector(const ParameterSet<double>& set) {
  return {set.values().begin(), set.values().end()};
}

TEST_CASE("nn adam: two steps on a 3-parameter toy, by hand") {
  const auto layout = toy_layout();
  Adam<double> adam(layout, AdamOptions{.learning_rate = 0.1});
  auto params = make_set<double>(layout, {1.0, -2.0, 0.5});

  // Step 1: bias correction makes the update lr * g / (|g| + eps).
  auto grads = make_set<double>(layout, {0.1, -0.2, 0.0});
  CHECK(adam.step(params, grads) == doctest::Approx(std::sqrt(0.05)));
  CHECK(params.values()[0] == doctest::Approx(0.900000009999999).epsilon(1e-13));
  CHECK(params.values()[1] == doctest::Approx(-1.9000000049999997).epsilon(1e-13));
  CHECK(params.values()[2] == 0.5);
  CHECK(adam.step_count() == 1);
  CHECK(adam.first_moment().values()[1] == doctest::Approx(-0.02).epsilon(1e-13));
  CHECK(adam.second_moment().values()[1] == doctest::Approx(4e-5).epsilon(1e-13));

  // Step 2 (computed with the textbook m_hat / (sqrt(v_hat) + eps) form).
  grads = make_set<double>(layout, {0.3, 0.2, -1.0});
  adam.step(params, grads);
  CHECK(params.values()[0] == doctest::Approx(0.8082219022055899).epsilon(1e-13));
  CHECK(params.values()[1] == doctest::Approx(-1.9052631626315786).epsilon(1e-13));
  CHECK(params.values()[2] == doctest::Approx(0.5744136813045929).epsilon(1e-13));
  CHECK(adam.first_moment().values()[0] == doctest::Approx(0.039).epsilon(1e-13));
  CHECK(adam.second_moment().values()[2] == doctest::Approx(1e-3).epsilon(1e-13));
}

TEST_CASE("nn adam: decoupled weight decay shrinks before the update") {
  const auto layout = toy_layout();
  Adam<double> adam(layout, AdamOptions{.learning_rate = 0.1, .weight_decay = 0.5});
  auto params = make_set<double>(layout, {1.0, -2.0, 0.5});
  auto grads = make_set<double>(layout, {0.0, 0.0, 0.0});
  adam.step(params, grads);
  CHECK(to_vector(params) == std::vector<double>{0.95, -1.9, 0.475});
}

TEST_CASE("nn adam: clipping scales the gradient to exactly max_grad_norm") {
  const auto layout = toy_layout();
  Adam<double> adam(layout, AdamOptions{.max_grad_norm = 1.0});
  auto params = make_set<double>(layout, {0, 0, 0});
  auto grads = make_set<double>(layout, {3.0, 4.0, 0.0});
  CHECK(adam.step(params, grads) == 5.0);  // the norm before clipping
  CHECK(grads.values()[0] == doctest::Approx(0.6).epsilon(1e-15));
  CHECK(grads.values()[1] == doctest::Approx(0.8).epsilon(1e-15));
  const double clipped = std::hypot(grads.values()[0], grads.values()[1]);
  CHECK(clipped == doctest::Approx(1.0).epsilon(1e-15));

  // Below the threshold nothing changes.
  grads = make_set<double>(layout, {0.3, 0.4, 0.0});
  CHECK(adam.step(params, grads) == doctest::Approx(0.5));
  CHECK(to_vector(grads) == std::vector<double>{0.3, 0.4, 0.0});
}

TEST_CASE_TEMPLATE("nn adam: minimises a quadratic", T, float, double) {
  // f(p) = Σ c_i (p_i - t_i)^2, badly conditioned on purpose.
  const std::vector<double> target = {1.5, -0.25, 3.0};
  const std::vector<double> curvature = {0.01, 1.0, 100.0};
  const auto layout = toy_layout();
  Adam<T> adam(layout, AdamOptions{.learning_rate = 0.05});
  ParameterSet<T> params(layout), grads(layout);
  for (int step = 0; step < 3000; ++step) {
    for (std::size_t i = 0; i < 3; ++i) {
      grads.values()[i] = static_cast<T>(2 * curvature[i] * (params.values()[i] - target[i]));
    }
    adam.step(params, grads);
  }
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(static_cast<double>(params.values()[i]) == doctest::Approx(target[i]).epsilon(1e-3));
  }
}

TEST_CASE("nn adam: a non-finite gradient is rejected and nothing changes") {
  const auto layout = toy_layout();
  Adam<float> adam(layout, AdamOptions{.max_grad_norm = 0.1});
  auto params = make_set<float>(layout, {1, 2, 3});
  auto grads = make_set<float>(layout, {1, 1, 1});
  adam.step(params, grads);
  const auto params_before = params.cast<double>();
  const auto m_before = adam.first_moment().cast<double>();

  grads = make_set<float>(layout, {5, 5, std::numeric_limits<float>::quiet_NaN()});
  CHECK_THROWS_WITH_AS(adam.step(params, grads), "Adam: the gradient of 'b' is not finite",
                       std::invalid_argument);
  grads = make_set<float>(layout, {5, std::numeric_limits<float>::infinity(), 5});
  CHECK_THROWS_WITH_AS(adam.step(params, grads), "Adam: the gradient of 'w' is not finite",
                       std::invalid_argument);
  CHECK(grads.values()[0] == 5.0f);  // not clipped either
  CHECK(params.cast<double>().values()[0] == params_before.values()[0]);
  CHECK(to_vector(params.cast<double>()) == to_vector(params_before));
  CHECK(to_vector(adam.first_moment().cast<double>()) == to_vector(m_before));
  CHECK(adam.step_count() == 1);
}

TEST_CASE("nn adam: bad options and mismatched layouts are rejected") {
  const auto layout = toy_layout();
  const auto rejects = [&](AdamOptions options, const char* message) {
    CHECK_THROWS_WITH_AS(Adam<double>(layout, options), message, std::invalid_argument);
  };
  rejects({.learning_rate = 0}, "Adam: learning_rate must be finite and > 0, got 0.000000");
  rejects({.learning_rate = std::nan("")}, "Adam: learning_rate must be finite and > 0, got nan");
  rejects({.beta1 = 1}, "Adam: beta1 must be in [0, 1), got 1.000000");
  rejects({.beta2 = -0.5}, "Adam: beta2 must be in [0, 1), got -0.500000");
  rejects({.epsilon = 0}, "Adam: epsilon must be finite and > 0, got 0.000000");
  rejects({.max_grad_norm = -1}, "Adam: max_grad_norm must be finite and >= 0, got -1.000000");
  rejects({.weight_decay = std::numeric_limits<double>::infinity()},
          "Adam: weight_decay must be finite and >= 0, got inf");
  CHECK_THROWS_AS(Adam<double>(nullptr, {}), std::invalid_argument);

  Adam<double> adam(layout, {});
  CHECK_THROWS_AS(adam.set_learning_rate(-1), std::invalid_argument);
  CHECK(adam.options().learning_rate == 1e-3);

  auto other = std::make_shared<ParameterLayout>();
  other->add("w", 1, 3);
  ParameterSet<double> params(layout), wrong(other), empty;
  CHECK_THROWS_WITH_AS(adam.step(params, wrong),
                       "Adam: grads do not have the optimiser's parameter layout",
                       std::invalid_argument);
  CHECK_THROWS_AS(adam.step(empty, params), std::invalid_argument);
  CHECK_THROWS_AS(adam.set_state(1, wrong, params), std::invalid_argument);
}

TEST_CASE("nn adam: a restored state continues identically") {
  const auto layout = toy_layout();
  Adam<double> original(layout, AdamOptions{.learning_rate = 0.01});
  auto params = make_set<double>(layout, {1, 2, 3});
  for (int i = 0; i < 3; ++i) {
    auto grads = make_set<double>(layout, {0.1 * i, -0.2, 0.3});
    original.step(params, grads);
  }
  // A copy of the layout (as read back from a file) is accepted.
  const auto copy = std::make_shared<ParameterLayout>(*layout);
  Adam<double> restored(copy, original.options());
  restored.set_state(original.step_count(), original.first_moment(), original.second_moment());
  CHECK(restored.step_count() == 3);

  auto params_copy = params;
  auto grads = make_set<double>(layout, {0.5, 0.5, -0.5});
  auto grads_copy = grads;
  original.step(params, grads);
  restored.step(params_copy, grads_copy);
  CHECK(to_vector(params) == to_vector(params_copy));

  auto negative = original.second_moment();
  negative.values()[2] = -1;
  CHECK_THROWS_WITH_AS(restored.set_state(1, original.first_moment(), negative),
                       "Adam: the second moment of 'b' is not finite and >= 0",
                       std::invalid_argument);
}

}  // namespace
}  // namespace memplace::nn
