#include "agents/evolution/boltzmann.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "agents/nn/categorical.hpp"
#include "base/portable_math.hpp"

namespace memplace::agents {

namespace {

float clip_temperature(double t) {
  return static_cast<float>(std::clamp(t, static_cast<double>(BoltzmannChromosome::kMinTemperature),
                                       static_cast<double>(BoltzmannChromosome::kMaxTemperature)));
}

}  // namespace

BoltzmannChromosome::BoltzmannChromosome(std::size_t tensors, std::size_t memories, Rng& rng)
    : memories_(memories), priors_(tensors * memories), temperatures_(tensors) {
  if (memories == 0) throw std::invalid_argument("BoltzmannChromosome: no memories");
  for (float& p : priors_)
    p = static_cast<float>(rng.uniform01());
  for (float& t : temperatures_)
    t = clip_temperature(kMinTemperature + (kMaxTemperature - kMinTemperature) * rng.uniform01());
}

BoltzmannChromosome::BoltzmannChromosome(std::vector<float> priors, std::vector<float> temperatures,
                                         std::size_t memories)
    : memories_(memories), priors_(std::move(priors)), temperatures_(std::move(temperatures)) {
  if (memories == 0 || priors_.size() != temperatures_.size() * memories)
    throw std::invalid_argument("BoltzmannChromosome: " + std::to_string(priors_.size()) +
                                " priors for " + std::to_string(temperatures_.size()) +
                                " tensors of " + std::to_string(memories) + " memories");
  for (const float t : temperatures_) {
    if (!(t >= kMinTemperature && t <= kMaxTemperature))
      throw std::invalid_argument("BoltzmannChromosome: temperature " + std::to_string(t) +
                                  " outside [0.1, 10]");
  }
}

void BoltzmannChromosome::sample(Rng& rng, std::span<MemoryIndex> out) const {
  std::vector<float> scaled(priors_.size());
  for (std::size_t t = 0; t < tensors(); ++t) {
    for (std::size_t m = 0; m < memories_; ++m)
      scaled[t * memories_ + m] = priors_[t * memories_ + m] / temperatures_[t];
  }
  nn::sample_rows<float>(scaled, tensors(), memories_, rng, out);
}

std::vector<double> BoltzmannChromosome::probabilities(std::size_t tensor) const {
  std::vector<double> z(memories_);
  for (std::size_t m = 0; m < memories_; ++m)
    z[m] = static_cast<double>(priors_.at(tensor * memories_ + m)) / temperatures_[tensor];
  std::vector<double> p(memories_);
  nn::log_softmax_rows<double>(z, 1, memories_, p);
  for (double& x : p)
    x = portable::exp(x);
  return p;
}

void BoltzmannChromosome::mutate(Rng& rng) {
  for (float& p : priors_)
    p = static_cast<float>(p * (1.0 + 0.1 * rng.normal()));
  for (float& t : temperatures_)
    t = clip_temperature(t * (0.95 + 0.1 * rng.normal()));
}

void BoltzmannChromosome::seed(std::span<const float> logits) {
  if (logits.size() != priors_.size())
    throw std::invalid_argument("BoltzmannChromosome::seed: " + std::to_string(logits.size()) +
                                " logits, " + std::to_string(priors_.size()) + " expected");
  std::copy(logits.begin(), logits.end(), priors_.begin());
  std::fill(temperatures_.begin(), temperatures_.end(), 1.0f);
}

void crossover(BoltzmannChromosome& a, BoltzmannChromosome& b, Rng& rng) {
  if (a.memories_ != b.memories_ || a.tensors() != b.tensors())
    throw std::invalid_argument("crossover: chromosomes of different shapes");
  const std::size_t m = a.memories_;
  for (std::size_t first = 0; first < a.tensors(); first += 2) {
    if (rng.uniform01() >= 0.5) continue;
    const std::size_t last = std::min(first + 2, a.tensors());
    std::swap_ranges(a.priors_.begin() + static_cast<std::ptrdiff_t>(first * m),
                     a.priors_.begin() + static_cast<std::ptrdiff_t>(last * m),
                     b.priors_.begin() + static_cast<std::ptrdiff_t>(first * m));
    std::swap_ranges(a.temperatures_.begin() + static_cast<std::ptrdiff_t>(first),
                     a.temperatures_.begin() + static_cast<std::ptrdiff_t>(last),
                     b.temperatures_.begin() + static_cast<std::ptrdiff_t>(first));
  }
}

}  // namespace memplace::agents
