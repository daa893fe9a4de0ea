#include "agents/nn/policy_gradient.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/nn/categorical.hpp"
#include "base/portable_math.hpp"

namespace memplace::nn {

template <class T>
void local_expectation_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                                std::span<const T> q, double scale, std::span<T> dlogits) {
  if (q.size() != logits.size() || dlogits.size() != logits.size())
    throw std::invalid_argument("local_expectation_backward: q and dlogits must have " +
                                std::to_string(logits.size()) + " values like the logits");
  std::vector<T> log_p(logits.size());
  log_softmax_rows<T>(logits, rows, memories, log_p);  // checks the shape and finiteness
  std::vector<double> p(memories);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t row = r * memories;
    double expected = 0;
    for (std::size_t j = 0; j < memories; ++j) {
      p[j] = portable::exp(static_cast<double>(log_p[row + j]));
      expected += p[j] * static_cast<double>(q[row + j]);
    }
    for (std::size_t j = 0; j < memories; ++j) {
      dlogits[row + j] +=
          static_cast<T>(scale * p[j] * (static_cast<double>(q[row + j]) - expected));
    }
  }
}

template <class T>
void score_function_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                             std::span<const std::uint8_t> actions, std::span<const double> q,
                             double scale, std::span<T> dlogits) {
  const std::size_t K = q.size();
  if (K < 2)
    throw std::invalid_argument("score_function_backward: the baseline needs at least 2 samples");
  if (actions.size() != K * rows)
    throw std::invalid_argument("score_function_backward: " + std::to_string(actions.size()) +
                                " action entries, expected " + std::to_string(K * rows));
  double total = 0;
  for (double v : q)
    total += v;
  for (std::size_t k = 0; k < K; ++k) {
    const double baseline = (total - q[k]) / static_cast<double>(K - 1);
    log_prob_backward<T>(logits, rows, memories, actions.subspan(k * rows, rows),
                         scale * (q[k] - baseline) / static_cast<double>(K), dlogits);
  }
}

template void local_expectation_backward<float>(std::span<const float>, std::size_t, std::size_t,
                                                std::span<const float>, double, std::span<float>);
template void local_expectation_backward<double>(std::span<const double>, std::size_t, std::size_t,
                                                 std::span<const double>, double,
                                                 std::span<double>);
template void score_function_backward<float>(std::span<const float>, std::size_t, std::size_t,
                                             std::span<const std::uint8_t>, std::span<const double>,
                                             double, std::span<float>);
template void score_function_backward<double>(std::span<const double>, std::size_t, std::size_t,
                                              std::span<const std::uint8_t>,
                                              std::span<const double>, double, std::span<double>);

}  // namespace memplace::nn
