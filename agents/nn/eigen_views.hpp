// Eigen views over the GNN's flat buffers (internal to agents/nn/): 1-D arrays for vectorised
// elementwise work (the products are agents/nn/gemm.hpp's).
//
// Each element of an elementwise expression is computed the same way wherever it sits (Eigen's
// scalar and packet tanh share one rational approximation), and a reduction's order depends only
// on the shapes (the buffers are 64-byte aligned), so results stay bit-identical across threads.
#pragma once

#include <Eigen/Core>
#include <cassert>
#include <span>

namespace memplace::nn::detail {

template <class T>
using ArrayView = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstArrayView = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

template <class T>
ArrayView<T> array(std::span<T> s) {
  return ArrayView<T>(s.data(), static_cast<Eigen::Index>(s.size()));
}
template <class T>
ConstArrayView<T> array(std::span<const T> s) {
  return ConstArrayView<T>(s.data(), static_cast<Eigen::Index>(s.size()));
}
template <class T>
ArrayView<T> array(T* data, std::size_t n) {
  return ArrayView<T>(data, static_cast<Eigen::Index>(n));
}
template <class T>
ConstArrayView<T> array(const T* data, std::size_t n) {
  return ConstArrayView<T>(data, static_cast<Eigen::Index>(n));
}

}  // namespace memplace::nn::detail
