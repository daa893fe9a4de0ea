// EGRL's Boltzmann chromosome: a stateless policy that holds, for every tensor (a node's weight
// or activation head), M prior logits and a temperature. A mapping draws each tensor's memory
// independently from softmax(prior / T); the state is never looked at. Cheap to sample, mutate
// and cross over, so the EA searches the mapping space directly with it (docs/agents.md, ea).
//
// Storage: priors are `tensors x memories`, row-major, row t for tensor t (Mapping order: row 2i
// is layer i's weight, 2i+1 its activation, as the GNN's logits read as 2N x M); one temperature
// per tensor, i.e. per node and head as in EGRL.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "base/rng.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace::agents {

class BoltzmannChromosome {
 public:
  // EGRL's range: initial temperatures are drawn in it, and mutation clips to it.
  static constexpr float kMinTemperature = 0.1f;
  static constexpr float kMaxTemperature = 10.0f;

  BoltzmannChromosome() = default;
  // Priors U(0, 1), temperatures U(0.1, 10), drawn in that order from `rng`.
  BoltzmannChromosome(std::size_t tensors, std::size_t memories, Rng& rng);
  // Given values (checkpoints, tests); throws std::invalid_argument on sizes that disagree or a
  // temperature outside [0.1, 10].
  BoltzmannChromosome(std::vector<float> priors, std::vector<float> temperatures,
                      std::size_t memories);

  std::size_t tensors() const { return temperatures_.size(); }
  std::size_t memories() const { return memories_; }
  std::span<const float> priors() const { return priors_; }
  std::span<const float> temperatures() const { return temperatures_; }

  // One memory per tensor from softmax(prior / T): exactly one rng.uniform01() per tensor
  // (nn::sample_rows), so a stream gives the same mapping on every platform.
  void sample(Rng& rng, std::span<MemoryIndex> out) const;
  // softmax(prior / T) of one tensor.
  std::vector<double> probabilities(std::size_t tensor) const;

  // Every prior times N(1, 0.1), then every temperature times N(0.95, 0.1) clipped to
  // [0.1, 10]: multiplicative noise keeps a prior's sign and scale, and the 0.95 mean cools the
  // chromosome slowly, sharpening it generation after generation.
  void mutate(Rng& rng);
  // Priors = `logits` (tensors x memories, e.g. a GNN's policy logits for the graph) and every
  // temperature 1, so the chromosome samples exactly the GNN's stochastic policy.
  void seed(std::span<const float> logits);

  friend bool operator==(const BoltzmannChromosome&, const BoltzmannChromosome&) = default;

 private:
  friend void crossover(BoltzmannChromosome& a, BoltzmannChromosome& b, Rng& rng);
  std::size_t memories_ = 0;
  std::vector<float> priors_;        // tensors x memories
  std::vector<float> temperatures_;  // tensors
};

// Uniform crossover by node, in place: each node (layer i: tensors 2i and 2i+1, with their priors
// and temperatures) is swapped between a and b with probability 1/2, one rng.uniform01() per
// node. Each child's node comes whole from one parent, and the two children are complementary.
// (The published EGRL code meant a per-node mix but always copied one parent; this is the mix.)
// Throws std::invalid_argument if the shapes differ.
void crossover(BoltzmannChromosome& a, BoltzmannChromosome& b, Rng& rng);

}  // namespace memplace::agents
