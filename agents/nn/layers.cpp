#include "agents/nn/layers.hpp"

#include "agents/nn/eigen_views.hpp"
#include "agents/nn/gemm.hpp"

#include <cassert>
#include <cmath>

namespace memplace::nn {

using detail::array;

template <class T>
void linear_forward(std::span<T> y, std::span<const T> x, std::span<const T> weight,
                    std::span<const T> bias, std::size_t rows, std::size_t in, std::size_t out) {
  // Start from the bias and let the GEMM accumulate onto it: one pass over y instead of two.
  for (std::size_t r = 0; r < rows; ++r) {
    T* row = y.data() + r * out;
    for (std::size_t c = 0; c < out; ++c)
      row[c] = bias[c];
  }
  gemm_nn<T>(y, x, weight, rows, in, out);
}

template <class T>
void linear_backward(std::span<T> dx, std::span<T> dweight, std::span<T> dbias,
                     std::span<const T> dy, std::span<const T> x, std::span<const T> weight,
                     std::size_t rows, std::size_t in, std::size_t out) {
  gemm_tn<T>(dweight, x, dy, in, rows, out);
  for (std::size_t r = 0; r < rows; ++r) {
    const T* row = dy.data() + r * out;
    for (std::size_t c = 0; c < out; ++c)
      dbias[c] += row[c];
  }
  if (!dx.empty()) gemm_nt<T>(dx, dy, weight, rows, out, in);
}

// Plain loops over restrict pointers: GCC vectorises these compare-and-blend loops, which Eigen
// 3.4's select() does not.
template <class T>
void relu_forward(std::span<T> y, std::span<const T> x) {
  T* __restrict out = y.data();
  const T* __restrict in = x.data();
  if (out == in) {  // in place
    for (std::size_t i = 0; i < x.size(); ++i)
      out[i] = out[i] > T(0) ? out[i] : T(0);
    return;
  }
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = in[i] > T(0) ? in[i] : T(0);
}

template <class T>
void relu_backward(std::span<T> dx, std::span<const T> dy, std::span<const T> y) {
  T* __restrict d = dx.data();
  const T* __restrict g = dy.data();
  const T* __restrict out = y.data();
  // A select between two values computed unconditionally (not `+= cond ? g : 0`, which GCC keeps
  // as a branch, adding +0 not being an identity for -0) vectorises to a compare and a blend.
  for (std::size_t i = 0; i < dy.size(); ++i) {
    const T sum = d[i] + g[i];
    d[i] = out[i] > T(0) ? sum : d[i];
  }
}

template <class T>
void tanh_forward(std::span<T> y, std::span<const T> x) {
  array(y) = array(x).tanh();
}

template <class T>
void tanh_backward(std::span<T> dx, std::span<const T> dy, std::span<const T> y) {
  array(dx) += array(dy) * (T(1) - array(y).square());
}

template <class T>
void add_forward(std::span<T> y, std::span<const T> a, std::span<const T> b) {
  array(y) = array(a) + array(b);
}

template <class T>
void layernorm_forward(std::span<T> y, std::span<T> mean, std::span<T> rstd, std::span<const T> x,
                       std::span<const T> gain, std::span<const T> bias, std::size_t rows,
                       std::size_t cols) {
  constexpr T kEpsilon = T(1e-5);
  const auto g = array(gain.data(), cols);
  const auto b = array(bias.data(), cols);
  for (std::size_t r = 0; r < rows; ++r) {
    const auto in = array(x.data() + r * cols, cols);
    const T m = in.mean();
    const T s = T(1) / std::sqrt((in - m).square().mean() + kEpsilon);
    array(y.data() + r * cols, cols) = (in - m) * s * g + b;
    mean[r] = m;
    rstd[r] = s;
  }
}

template <class T>
void layernorm_backward(std::span<T> dx, std::span<T> dgain, std::span<T> dbias,
                        std::span<const T> dy, std::span<const T> x, std::span<const T> mean,
                        std::span<const T> rstd, std::span<const T> gain, std::size_t rows,
                        std::size_t cols) {
  const auto g = array(gain.data(), cols);
  auto dg = array(dgain.data(), cols);
  auto db = array(dbias.data(), cols);
  Eigen::Array<T, Eigen::Dynamic, 1> n(cols), dn(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    const auto d = array(dy.data() + r * cols, cols);
    // With n = (x - mean)·rstd and dn = dy ⊙ gain:  dx = rstd · (dn - mean(dn) - n · mean(dn ⊙ n)).
    n = (array(x.data() + r * cols, cols) - mean[r]) * rstd[r];
    dn = d * g;
    dg += d * n;
    db += d;
    const T dn_mean = dn.mean();
    const T dn_n_mean = (dn * n).mean();
    array(dx.data() + r * cols, cols) += rstd[r] * (dn - dn_mean - n * dn_n_mean);
  }
}

namespace {

// out_row = mean of the rows of h listed as the neighbours of `node` (zero when there are none).
template <class T>
void mean_of_neighbours(T* out_row, std::span<const T> h, Neighbours nb, std::size_t node,
                        std::size_t cols) {
  for (std::size_t c = 0; c < cols; ++c)
    out_row[c] = T(0);
  const std::size_t n = nb.count(node);
  if (n == 0) return;
  for (std::uint32_t k = nb.offsets[node]; k < nb.offsets[node + 1]; ++k) {
    const T* src = h.data() + static_cast<std::size_t>(nb.index[k]) * cols;
    for (std::size_t c = 0; c < cols; ++c)
      out_row[c] += src[c];
  }
  const T scale = T(1) / static_cast<T>(n);
  for (std::size_t c = 0; c < cols; ++c)
    out_row[c] *= scale;
}

// The transpose of mean_of_neighbours: spreads d_row / n onto each neighbour's row of dh.
template <class T>
void spread_to_neighbours(std::span<T> dh, const T* d_row, Neighbours nb, std::size_t node,
                          std::size_t cols) {
  const std::size_t n = nb.count(node);
  if (n == 0) return;
  const T scale = T(1) / static_cast<T>(n);
  for (std::uint32_t k = nb.offsets[node]; k < nb.offsets[node + 1]; ++k) {
    T* dst = dh.data() + static_cast<std::size_t>(nb.index[k]) * cols;
    for (std::size_t c = 0; c < cols; ++c)
      dst[c] += d_row[c] * scale;
  }
}

}  // namespace

template <class T>
void bidirectional_gather_forward(std::span<T> c, std::span<const T> h, Neighbours in,
                                  Neighbours out, std::size_t rows, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i) {
    T* row = c.data() + i * 3 * cols;
    const T* self = h.data() + i * cols;
    for (std::size_t k = 0; k < cols; ++k)
      row[k] = self[k];
    mean_of_neighbours(row + cols, h, in, i, cols);
    mean_of_neighbours(row + 2 * cols, h, out, i, cols);
  }
}

template <class T>
void bidirectional_gather_backward(std::span<T> dh, std::span<const T> dc, Neighbours in,
                                   Neighbours out, std::size_t rows, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i) {
    const T* row = dc.data() + i * 3 * cols;
    T* self = dh.data() + i * cols;
    for (std::size_t k = 0; k < cols; ++k)
      self[k] += row[k];
    spread_to_neighbours(dh, row + cols, in, i, cols);
    spread_to_neighbours(dh, row + 2 * cols, out, i, cols);
  }
}

template <class T>
void mean_max_pool_forward(std::span<T> pooled, std::span<std::uint32_t> argmax,
                           std::span<const T> h, std::span<const std::uint32_t> offsets,
                           std::size_t cols) {
  const std::size_t graphs = offsets.size() - 1;
  for (std::size_t g = 0; g < graphs; ++g) {
    T* mean = pooled.data() + g * 2 * cols;
    T* max = mean + cols;
    std::uint32_t* arg = argmax.data() + g * cols;
    const std::uint32_t first = offsets[g];
    for (std::size_t k = 0; k < cols; ++k) {
      mean[k] = T(0);
      max[k] = h[first * cols + k];
      arg[k] = first;
    }
    for (std::uint32_t i = first; i < offsets[g + 1]; ++i) {
      const T* row = h.data() + static_cast<std::size_t>(i) * cols;
      for (std::size_t k = 0; k < cols; ++k) {
        mean[k] += row[k];
        if (row[k] > max[k]) {
          max[k] = row[k];
          arg[k] = i;
        }
      }
    }
    const T scale = T(1) / static_cast<T>(offsets[g + 1] - first);
    for (std::size_t k = 0; k < cols; ++k)
      mean[k] *= scale;
  }
}

template <class T>
void mean_max_pool_backward(std::span<T> dh, std::span<const T> dpooled,
                            std::span<const std::uint32_t> argmax,
                            std::span<const std::uint32_t> offsets, std::size_t cols) {
  const std::size_t graphs = offsets.size() - 1;
  for (std::size_t g = 0; g < graphs; ++g) {
    const T* dmean = dpooled.data() + g * 2 * cols;
    const T* dmax = dmean + cols;
    const T scale = T(1) / static_cast<T>(offsets[g + 1] - offsets[g]);
    for (std::uint32_t i = offsets[g]; i < offsets[g + 1]; ++i) {
      T* row = dh.data() + static_cast<std::size_t>(i) * cols;
      for (std::size_t k = 0; k < cols; ++k)
        row[k] += dmean[k] * scale;
    }
    for (std::size_t k = 0; k < cols; ++k)
      dh[static_cast<std::size_t>(argmax[g * cols + k]) * cols + k] += dmax[k];
  }
}

#define MEMPLACE_NN_INSTANTIATE(T)                                                                 \
  template void linear_forward<T>(std::span<T>, std::span<const T>, std::span<const T>,            \
                                  std::span<const T>, std::size_t, std::size_t, std::size_t);      \
  template void linear_backward<T>(std::span<T>, std::span<T>, std::span<T>, std::span<const T>,   \
                                   std::span<const T>, std::span<const T>, std::size_t,            \
                                   std::size_t, std::size_t);                                      \
  template void relu_forward<T>(std::span<T>, std::span<const T>);                                 \
  template void relu_backward<T>(std::span<T>, std::span<const T>, std::span<const T>);            \
  template void tanh_forward<T>(std::span<T>, std::span<const T>);                                 \
  template void tanh_backward<T>(std::span<T>, std::span<const T>, std::span<const T>);            \
  template void add_forward<T>(std::span<T>, std::span<const T>, std::span<const T>);              \
  template void layernorm_forward<T>(std::span<T>, std::span<T>, std::span<T>, std::span<const T>, \
                                     std::span<const T>, std::span<const T>, std::size_t,          \
                                     std::size_t);                                                 \
  template void layernorm_backward<T>(                                                             \
      std::span<T>, std::span<T>, std::span<T>, std::span<const T>, std::span<const T>,            \
      std::span<const T>, std::span<const T>, std::span<const T>, std::size_t, std::size_t);       \
  template void bidirectional_gather_forward<T>(std::span<T>, std::span<const T>, Neighbours,      \
                                                Neighbours, std::size_t, std::size_t);             \
  template void bidirectional_gather_backward<T>(std::span<T>, std::span<const T>, Neighbours,     \
                                                 Neighbours, std::size_t, std::size_t);            \
  template void mean_max_pool_forward<T>(std::span<T>, std::span<std::uint32_t>,                   \
                                         std::span<const T>, std::span<const std::uint32_t>,       \
                                         std::size_t);                                             \
  template void mean_max_pool_backward<T>(std::span<T>, std::span<const T>,                        \
                                          std::span<const std::uint32_t>,                          \
                                          std::span<const std::uint32_t>, std::size_t);

MEMPLACE_NN_INSTANTIATE(float)
MEMPLACE_NN_INSTANTIATE(double)

}  // namespace memplace::nn
