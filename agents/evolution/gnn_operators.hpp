// Crossover and mutation of GNN parameter sets, tensor by tensor, after EGRL's neuroevolution
// operators (values from EGRL's code; docs/agents.md, ea, "Operators, exactly", gives each with its
// source).
//
// A tensor with more than one row is a "matrix" (a weight, the Q head's embedding tables); a
// tensor of one row is a "vector" (a bias, a layer norm's gain or shift). Rows are the layout's
// rows: with `y = x W + b` and W stored in x out, a row of W is one input unit's fan-out.
#pragma once

#include <cstddef>

#include "agents/nn/parameters.hpp"
#include "base/rng.hpp"

namespace memplace::agents::gnn_ops {

// Crossover: in a matrix, up to this fraction of its rows is swapped.
inline constexpr double kCrossoverRowFraction = 0.3;
// Crossover: a vector swaps one random element with this probability.
inline constexpr double kVectorCrossoverProb = 0.2;
// Mutation: a matrix gets up to ceil(this fraction x its size) perturbations.
inline constexpr double kMutationFraction = 0.05;
// Mutation: a vector is mutated (with the same operator) only with this probability.
inline constexpr double kVectorMutationProb = 0.04;
// Per perturbation: with kSuperProb w += N(0, kSuperStrength |w|); else with kResetProb
// w = N(0, kResetStd); else w += N(0, kStrength |w|).
inline constexpr double kSuperProb = 0.05;
inline constexpr double kSuperStrength = 10.0;
inline constexpr double kResetProb = 0.02;
inline constexpr double kResetStd = 0.1;
inline constexpr double kStrength = 0.1;
// Every mutated weight is clamped to [-kWeightLimit, kWeightLimit].
inline constexpr double kWeightLimit = 1e7;

// In place, tensor by tensor in layout order: in each matrix of R rows, k rows chosen uniformly
// without repetition (k uniform in 0..floor(0.3 R)) are swapped between a and b, so every row of
// either child comes whole from one parent; in each vector, with probability 0.2, one uniformly
// chosen element is swapped. Throws std::invalid_argument if the layouts differ.
void crossover(nn::ParameterSet<float>& a, nn::ParameterSet<float>& b, Rng& rng);

// In place, tensor by tensor in layout order: a matrix of S weights gets k perturbations (k
// uniform in 0..ceil(0.05 S)) at uniformly drawn positions (with repetition, so at most k
// distinct weights change); a vector is treated the same way with probability 0.04. Each
// perturbed weight is clamped to ±1e7.
void mutate(nn::ParameterSet<float>& p, Rng& rng);

// The most weights mutate() may change in a tensor of `rows x cols` (tests).
std::size_t max_mutations(std::size_t rows, std::size_t cols);

}  // namespace memplace::agents::gnn_ops
