#include "agents/evolution/gnn_operators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace memplace::agents::gnn_ops {

namespace {

void perturb(float& w, Rng& rng) {
  const double r = rng.uniform01();
  const double x = w;
  double y = 0;
  if (r < kSuperProb) {
    y = x + kSuperStrength * std::abs(x) * rng.normal();
  } else if (r < kSuperProb + kResetProb) {
    y = kResetStd * rng.normal();
  } else {
    y = x + kStrength * std::abs(x) * rng.normal();
  }
  w = static_cast<float>(std::clamp(y, -kWeightLimit, kWeightLimit));
}

}  // namespace

std::size_t max_mutations(std::size_t rows, std::size_t cols) {
  return static_cast<std::size_t>(std::ceil(kMutationFraction * static_cast<double>(rows * cols)));
}

void crossover(nn::ParameterSet<float>& a, nn::ParameterSet<float>& b, Rng& rng) {
  if (a.layout() != b.layout())
    throw std::invalid_argument("gnn_ops::crossover: parameter sets of different layouts");
  std::vector<std::size_t> order;
  for (std::size_t t = 0; t < a.layout().tensors().size(); ++t) {
    const nn::TensorSpec& spec = a.layout().tensor(t);
    std::span<float> x = a.tensor(t), y = b.tensor(t);
    if (spec.size() == 0) continue;
    if (spec.rows == 1) {
      if (rng.uniform01() < kVectorCrossoverProb) {
        const std::size_t i = rng.uniform(spec.cols);
        std::swap(x[i], y[i]);
      }
      continue;
    }
    const auto most =
        static_cast<std::size_t>(kCrossoverRowFraction * static_cast<double>(spec.rows));
    const std::size_t count = rng.uniform(most + 1);
    // The first `count` steps of a Fisher-Yates shuffle: distinct rows, so no swap undoes another.
    order.resize(spec.rows);
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t k = 0; k < count; ++k) {
      std::swap(order[k], order[k + rng.uniform(spec.rows - k)]);
      const std::size_t r = order[k];
      std::swap_ranges(x.begin() + static_cast<std::ptrdiff_t>(r * spec.cols),
                       x.begin() + static_cast<std::ptrdiff_t>((r + 1) * spec.cols),
                       y.begin() + static_cast<std::ptrdiff_t>(r * spec.cols));
    }
  }
}

void mutate(nn::ParameterSet<float>& p, Rng& rng) {
  for (std::size_t t = 0; t < p.layout().tensors().size(); ++t) {
    const nn::TensorSpec& spec = p.layout().tensor(t);
    std::span<float> w = p.tensor(t);
    if (spec.size() == 0) continue;
    if (spec.rows == 1 && rng.uniform01() >= kVectorMutationProb) continue;
    const std::size_t count = rng.uniform(max_mutations(spec.rows, spec.cols) + 1);
    for (std::size_t k = 0; k < count; ++k)
      perturb(w[rng.uniform(w.size())], rng);
  }
}

}  // namespace memplace::agents::gnn_ops
