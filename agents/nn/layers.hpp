// The GNN's layers, each a forward/backward pair over flat row-major buffers (as in llm.c).
//
// Conventions, shared by every function here:
// - a matrix is `rows x cols`, row-major, in a std::span; a linear layer is y = x W + b, with W
//   stored `in x out`;
// - forward functions overwrite their outputs; backward functions ACCUMULATE (+=) into every
//   gradient they produce, so a tensor feeding two consumers (a residual, two heads) just receives
//   both contributions; callers zero gradient buffers first;
// - reductions run in a fixed order, so results do not depend on threads or buffer addresses.
// The derivation of each backward is in docs/gnn.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace memplace::nn {

// y = x W + b.
template <class T>
void linear_forward(std::span<T> y, std::span<const T> x, std::span<const T> weight,
                    std::span<const T> bias, std::size_t rows, std::size_t in, std::size_t out);
// dW += xᵀ dy, db += column sums of dy, dx += dy Wᵀ (skipped when dx is empty: network inputs).
template <class T>
void linear_backward(std::span<T> dx, std::span<T> dweight, std::span<T> dbias,
                     std::span<const T> dy, std::span<const T> x, std::span<const T> weight,
                     std::size_t rows, std::size_t in, std::size_t out);

// y = max(x, 0); the backward reads y (y > 0 exactly where x > 0).
template <class T>
void relu_forward(std::span<T> y, std::span<const T> x);
template <class T>
void relu_backward(std::span<T> dx, std::span<const T> dy, std::span<const T> y);

// y = tanh(x); the backward reads y (dtanh = 1 - y²).
template <class T>
void tanh_forward(std::span<T> y, std::span<const T> x);
template <class T>
void tanh_backward(std::span<T> dx, std::span<const T> dy, std::span<const T> y);

// y = a + b (a residual connection); its backward hands dy to both inputs unchanged.
template <class T>
void add_forward(std::span<T> y, std::span<const T> a, std::span<const T> b);

// Per row: y = (x - mean) * rstd * gain + bias, rstd = 1/sqrt(var + 1e-5), biased variance.
// Saves mean and rstd (one per row) for the backward.
template <class T>
void layernorm_forward(std::span<T> y, std::span<T> mean, std::span<T> rstd, std::span<const T> x,
                       std::span<const T> gain, std::span<const T> bias, std::size_t rows,
                       std::size_t cols);
template <class T>
void layernorm_backward(std::span<T> dx, std::span<T> dgain, std::span<T> dbias,
                        std::span<const T> dy, std::span<const T> x, std::span<const T> mean,
                        std::span<const T> rstd, std::span<const T> gain, std::size_t rows,
                        std::size_t cols);

// A graph's neighbourhoods in compressed rows: the neighbours of node i are
// index[offsets[i] .. offsets[i+1]-1] (global node numbers of the batch).
struct Neighbours {
  std::span<const std::uint32_t> offsets;  // num_nodes + 1
  std::span<const std::uint32_t> index;
  std::size_t count(std::size_t node) const { return offsets[node + 1] - offsets[node]; }
};

// The bidirectional gather, fused: c = [h, mean_in(h), mean_out(h)], c is rows x 3·cols.
template <class T>
void bidirectional_gather_forward(std::span<T> c, std::span<const T> h, Neighbours in,
                                  Neighbours out, std::size_t rows, std::size_t cols);
// dh += dc[:, 0:cols] + the means' transposes applied to the other two blocks.
template <class T>
void bidirectional_gather_backward(std::span<T> dh, std::span<const T> dc, Neighbours in,
                                   Neighbours out, std::size_t rows, std::size_t cols);

// Per graph g (nodes offsets[g] .. offsets[g+1]-1): pooled[g] = [mean of h rows, max of h rows],
// 2·cols wide. argmax[g·cols + k] records the row that won feature k (the first, on ties).
template <class T>
void mean_max_pool_forward(std::span<T> pooled, std::span<std::uint32_t> argmax,
                           std::span<const T> h, std::span<const std::uint32_t> offsets,
                           std::size_t cols);
template <class T>
void mean_max_pool_backward(std::span<T> dh, std::span<const T> dpooled,
                            std::span<const std::uint32_t> argmax,
                            std::span<const std::uint32_t> offsets, std::size_t cols);

}  // namespace memplace::nn
