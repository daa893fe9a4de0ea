// Independent categorical distributions over the rows of a logits matrix.
//
// `logits` is row-major `rows x memories`: each row is one distribution over the memories. For the
// GNN's policy head (docs/gnn.md) row 2i is layer i's weight tensor and row 2i+1 its activation,
// so an action is a memplace::Mapping: one memory index per row. A graph of a batch owns a
// contiguous block of rows; pass subspans to work on one graph.
//
// Every function works in double precision internally (log-sum-exp with the row maximum
// subtracted), so large logits (±1e4) never produce inf or NaN. Arguments are checked: sizes must
// agree, 1 <= memories <= 256, actions < memories, logits finite; violations throw
// std::invalid_argument naming the argument.
//
// T is float or double. Call with an explicit T when passing containers (`log_prob<float>(v,
// ...)`); std::span arguments deduce it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/rng.hpp"

namespace memplace::nn {

// out[r, j] = log softmax(logits[r, :])_j. `out` may not alias `logits`.
template <class T>
void log_softmax_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                      std::span<T> out);

// Draws one memory per row: exactly one rng.uniform01() per row, inverted through the row's CDF,
// so the same seed gives the same samples on every platform. Memories of probability zero (after
// underflow) are never drawn.
template <class T>
void sample_rows(std::span<const T> logits, std::size_t rows, std::size_t memories, Rng& rng,
                 std::span<std::uint8_t> out);

// The most likely memory of each row; ties go to the lowest index.
template <class T>
void argmax_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                 std::span<std::uint8_t> out);

// Σ_r log p_r(actions[r]).
template <class T>
double log_prob(std::span<const T> logits, std::size_t rows, std::size_t memories,
                std::span<const std::uint8_t> actions);

// out[r] = log p_r(actions[r]).
template <class T>
void log_prob_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                   std::span<const std::uint8_t> actions, std::span<double> out);

// dlogits += scale * d log_prob / d logits = scale * (onehot(actions) - softmax), row by row.
// Accumulates, so a loss with several terms can add them into one gradient buffer.
template <class T>
void log_prob_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                       std::span<const std::uint8_t> actions, double scale, std::span<T> dlogits);

// Σ_r H_r, with H_r = -Σ_j p_rj log p_rj.
template <class T>
double entropy(std::span<const T> logits, std::size_t rows, std::size_t memories);

// out[r] = H_r.
template <class T>
void entropy_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                  std::span<double> out);

// dlogits += scale * dH/dlogits, with dH_r/dz_rj = -p_rj (log p_rj + H_r). Accumulates.
template <class T>
void entropy_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                      double scale, std::span<T> dlogits);

}  // namespace memplace::nn
