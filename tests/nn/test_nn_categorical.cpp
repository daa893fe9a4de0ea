// The categorical heads' sampling, log-probabilities, entropies and their gradients.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "agents/nn/categorical.hpp"

namespace memplace::nn {
namespace {

using Actions = std::vector<std::uint8_t>;

std::vector<double> random_logits(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> out(n);
  for (double& z : out) {
    z = 6.0 * rng.uniform01() - 3.0;
  }
  return out;
}

// The central-difference gradient of f at x.
std::vector<double> numerical_gradient(const std::function<double(std::span<const double>)>& f,
                                       std::vector<double> x) {
  constexpr double kStep = 1e-5;
  std::vector<double> grad(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + kStep;
    const double plus = f(x);
    x[i] = saved - kStep;
    const double minus = f(x);
    x[i] = saved;
    grad[i] = (plus - minus) / (2 * kStep);
  }
  return grad;
}

// ||a - b|| / max(||a||, ||b||).
double relative_error(std::span<const double> a, std::span<const double> b) {
  double diff = 0, norm_a = 0, norm_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm_a += a[i] * a[i];
    norm_b += b[i] * b[i];
  }
  return std::sqrt(diff) / std::max(std::sqrt(std::max(norm_a, norm_b)), 1e-300);
}

TEST_CASE("nn categorical: hand-computed toy row [0, ln 2, ln 3]") {
  // p = [1/6, 2/6, 3/6].
  const std::vector<double> logits = {0.0, std::log(2.0), std::log(3.0)};
  const double p[] = {1.0 / 6, 2.0 / 6, 3.0 / 6};
  const double h = -(p[0] * std::log(p[0]) + p[1] * std::log(p[1]) + p[2] * std::log(p[2]));

  std::vector<double> log_p(3);
  log_softmax_rows<double>(logits, 1, 3, log_p);
  for (int j = 0; j < 3; ++j) {
    CHECK(log_p[j] == doctest::Approx(std::log(p[j])).epsilon(1e-15));
  }

  CHECK(log_prob<double>(logits, 1, 3, Actions{2}) == doctest::Approx(std::log(0.5)));
  CHECK(entropy<double>(logits, 1, 3) == doctest::Approx(h).epsilon(1e-15));

  // Accumulates into what is already there.
  std::vector<double> d = {1.0, 1.0, 1.0};
  log_prob_backward<double>(logits, 1, 3, Actions{0}, 2.0, d);
  CHECK(d[0] == doctest::Approx(1.0 + 2.0 * (1 - p[0])));
  CHECK(d[1] == doctest::Approx(1.0 - 2.0 * p[1]));
  CHECK(d[2] == doctest::Approx(1.0 - 2.0 * p[2]));

  std::vector<double> dh(3, 0.0);
  entropy_backward<double>(logits, 1, 3, 1.0, dh);
  for (int j = 0; j < 3; ++j) {
    CHECK(dh[j] == doctest::Approx(-p[j] * (std::log(p[j]) + h)));
  }

  // Two rows, per-row values and their sums; float gives the same to float precision.
  const std::vector<float> two = {0.0f, std::log(2.0f), std::log(3.0f), 1.0f, 1.0f, 1.0f};
  std::vector<double> per_row(2);
  log_prob_rows<float>(two, 2, 3, Actions{1, 0}, per_row);
  CHECK(per_row[0] == doctest::Approx(std::log(1.0 / 3)).epsilon(1e-6));
  CHECK(per_row[1] == doctest::Approx(std::log(1.0 / 3)).epsilon(1e-6));
  CHECK(log_prob<float>(two, 2, 3, Actions{1, 0}) == doctest::Approx(per_row[0] + per_row[1]));
  entropy_rows<float>(two, 2, 3, per_row);
  CHECK(per_row[0] == doctest::Approx(h).epsilon(1e-6));
  CHECK(per_row[1] == doctest::Approx(std::log(3.0)).epsilon(1e-6));
  CHECK(entropy<float>(two, 2, 3) == doctest::Approx(per_row[0] + per_row[1]));
}

TEST_CASE("nn categorical: argmax takes the lowest index on ties") {
  const std::vector<double> logits = {1, 3, 3, 2, 2, 2, -1, 0, -5};
  Actions out(3);
  argmax_rows<double>(logits, 3, 3, out);
  CHECK(out == Actions{1, 0, 1});
}

TEST_CASE("nn categorical: gradients match central finite differences") {
  constexpr std::size_t kRows = 6, kMemories = 4;
  const std::vector<double> logits = random_logits(kRows * kMemories, 7);
  const Actions actions = {0, 3, 1, 2, 2, 0};

  SUBCASE("log_prob") {
    std::vector<double> analytic(logits.size(), 0.0);
    log_prob_backward<double>(logits, kRows, kMemories, actions, 1.0, analytic);
    const auto numeric = numerical_gradient(
        [&](std::span<const double> z) { return log_prob(z, kRows, kMemories, actions); }, logits);
    CHECK(relative_error(analytic, numeric) <= 1e-7);
  }
  SUBCASE("entropy") {
    std::vector<double> analytic(logits.size(), 0.0);
    entropy_backward<double>(logits, kRows, kMemories, 1.0, analytic);
    const auto numeric = numerical_gradient(
        [&](std::span<const double> z) { return entropy(z, kRows, kMemories); }, logits);
    CHECK(relative_error(analytic, numeric) <= 1e-7);
  }
  SUBCASE("scale multiplies") {
    std::vector<double> once(logits.size(), 0.0), twice(logits.size(), 0.0);
    log_prob_backward<double>(logits, kRows, kMemories, actions, -3.0, once);
    entropy_backward<double>(logits, kRows, kMemories, 0.25, once);
    for (int i = 0; i < 2; ++i) {
      log_prob_backward<double>(logits, kRows, kMemories, actions, -1.5, twice);
      entropy_backward<double>(logits, kRows, kMemories, 0.125, twice);
    }
    for (std::size_t i = 0; i < once.size(); ++i) {
      CHECK(once[i] == doctest::Approx(twice[i]));
    }
  }
}

TEST_CASE("nn categorical: sample frequencies match the softmax") {
  constexpr std::size_t kSamples = 200000, kMemories = 4;
  const std::vector<double> row = {0.5, -1.0, 2.0, 0.0};
  std::vector<double> logits;
  for (std::size_t i = 0; i < kSamples; ++i) {
    logits.insert(logits.end(), row.begin(), row.end());
  }

  Rng rng(12345);
  Actions samples(kSamples);
  sample_rows<double>(logits, kSamples, kMemories, rng, samples);

  std::vector<double> log_p(kMemories);
  log_softmax_rows<double>(row, 1, kMemories, log_p);
  for (std::size_t j = 0; j < kMemories; ++j) {
    const double p = std::exp(log_p[j]);
    const auto count = static_cast<double>(
        std::count(samples.begin(), samples.end(), static_cast<std::uint8_t>(j)));
    const double sigma = std::sqrt(kSamples * p * (1 - p));
    CHECK_MESSAGE(std::abs(count - kSamples * p) <= 4 * sigma, "memory " << j);
  }
}

TEST_CASE("nn categorical: sampling is seeded and draws one uniform per row") {
  const std::vector<float> logits = [] {
    std::vector<float> out;
    for (double z : random_logits(300, 3)) {
      out.push_back(static_cast<float>(z));
    }
    return out;
  }();
  Actions a(100), b(100), c(100);
  Rng first(99), second(99), other(100);
  sample_rows<float>(logits, 100, 3, first, a);
  sample_rows<float>(logits, 100, 3, second, b);
  sample_rows<float>(logits, 100, 3, other, c);
  CHECK(a == b);
  CHECK(a != c);

  Rng reference(99);
  for (int i = 0; i < 100; ++i) {
    reference.uniform01();
  }
  CHECK(first == reference);
}

TEST_CASE("nn categorical: large logits stay finite") {
  // Row 0 is certain, row 1 has two equal winners, row 2 mixes extremes of both signs.
  const std::vector<double> logits = {1e4, -1e4, 0, 1e4, 1e4, -1e4, -1e4, 5e3, 1e4};
  const Actions actions = {1, 0, 0};
  std::vector<double> log_p(9), per_row(3), grad(9, 0.0);
  log_softmax_rows<double>(logits, 3, 3, log_p);
  for (double v : log_p) {
    CHECK(std::isfinite(v));
  }
  CHECK(log_p[0] == 0.0);
  CHECK(log_p[1] == doctest::Approx(-2e4));
  CHECK(log_p[3] == doctest::Approx(-std::log(2.0)));

  CHECK(std::isfinite(log_prob<double>(logits, 3, 3, actions)));
  log_prob_rows<double>(logits, 3, 3, actions, per_row);
  for (double v : per_row) {
    CHECK(std::isfinite(v));
  }
  CHECK(entropy<double>(logits, 3, 3) == doctest::Approx(std::log(2.0)));
  log_prob_backward<double>(logits, 3, 3, actions, 1.0, grad);
  entropy_backward<double>(logits, 3, 3, 1.0, grad);
  for (double v : grad) {
    CHECK(std::isfinite(v));
  }

  const std::vector<float> flogits(logits.begin(), logits.end());
  std::vector<float> flog_p(9);
  log_softmax_rows<float>(flogits, 3, 3, flog_p);
  for (float v : flog_p) {
    CHECK(std::isfinite(v));
  }

  // Memories of negligible probability are never drawn.
  Rng rng(1);
  Actions samples(3);
  for (int i = 0; i < 1000; ++i) {
    sample_rows<double>(logits, 3, 3, rng, samples);
    CHECK(samples[0] == 0);
    CHECK(samples[1] != 2);
    CHECK(samples[2] == 2);
  }
}

TEST_CASE("nn categorical: bad arguments are rejected, naming the argument") {
  const std::vector<double> logits(6, 0.0);
  std::vector<double> grad(6, 0.0), per_row(2);
  Actions out(2);
  Rng rng(0);
  CHECK_THROWS_WITH_AS(log_prob<double>(logits, 2, 3, Actions{0, 3}),
                       "log_prob: actions[1] = 3 is not a memory (memories = 3)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(log_prob<double>(logits, 2, 3, Actions{0}),
                       "log_prob: actions has 1 entries, 2 expected", std::invalid_argument);
  CHECK_THROWS_WITH_AS(entropy<double>(logits, 3, 3),
                       "entropy: logits has 6 values, rows x memories = 3 x 3 expected",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(argmax_rows<double>(logits, 6, 0, out),
                       "argmax_rows: memories must be in [1, 256], got 0", std::invalid_argument);
  CHECK_THROWS_AS(sample_rows<double>(logits, 2, 3, rng, std::span(out).first(1)),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      log_prob_backward<double>(logits, 2, 3, Actions{0, 0}, 1.0, std::span(grad).first(5)),
      std::invalid_argument);
  CHECK_THROWS_AS(entropy_backward<double>(logits, 1, 6, 1.0, std::span(grad).first(3)),
                  std::invalid_argument);
  CHECK_THROWS_AS(log_prob_rows<double>(logits, 2, 3, Actions{0, 0}, std::span(per_row).first(1)),
                  std::invalid_argument);

  std::vector<double> bad = logits;
  bad[4] = std::nan("");
  CHECK_THROWS_WITH_AS(entropy<double>(bad, 2, 3), "entropy: logits row 1 is not finite",
                       std::invalid_argument);
  bad[4] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(sample_rows<double>(bad, 2, 3, rng, out), std::invalid_argument);
  CHECK_THROWS_AS(argmax_rows<double>(bad, 2, 3, out), std::invalid_argument);
}

}  // namespace
}  // namespace memplace::nn
