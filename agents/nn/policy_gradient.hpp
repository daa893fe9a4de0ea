// Gradient estimators for E_a~π[Q(a)] under a factorised categorical policy over the rows of a
// logits matrix (rows x memories, as in categorical.hpp): the gradient with respect to the logits
// from sampled actions and a critic's values. docs/agents.md (sac) derives both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace memplace::nn {

// Local expectation (Titsias & Lázaro-Gredilla, 2015) for one sampled action a:
// dlogits += scale * Σ_r ∂/∂z_r Σ_j π_r(j) q[r, j], where q[r, j] = Q(a with row r set to j)
// (rows x memories, held fixed), i.e. dlogits[r, j] += scale * π_r(j) (q[r, j] - Σ_i π_r(i)
// q[r, i]). Its mean over a ~ π is exactly ∇ E_π[Q]. Accumulates.
template <class T>
void local_expectation_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                                std::span<const T> q, double scale, std::span<T> dlogits);

// Score function (REINFORCE) over K sampled actions (actions: K x rows) with returns q (K) and a
// leave-one-out baseline b_k = mean of the other returns:
// dlogits += scale * (1/K) Σ_k (q_k - b_k) ∇ log π(a_k). Unbiased for ∇ E_π[Q]; needs K >= 2.
template <class T>
void score_function_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                             std::span<const std::uint8_t> actions, std::span<const double> q,
                             double scale, std::span<T> dlogits);

}  // namespace memplace::nn
