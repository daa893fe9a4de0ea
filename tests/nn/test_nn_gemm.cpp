// agents/nn/gemm.hpp: every kernel this CPU runs gives exactly the definition's bits (each element
// a chain of fused multiply-adds in depth order) on shapes that exercise every tile edge, for
// C += A B, Aᵀ B and A Bᵀ; the products are right (against double); kernel names are checked.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "agents/nn/gemm.hpp"
#include "base/rng.hpp"

namespace memplace::nn {
namespace {

std::vector<float> random_values(std::size_t n, Rng& rng) {
  std::vector<float> v(n);
  for (float& x : v)
    x = static_cast<float>(rng.normal());
  return v;
}

// The definition, element by element: C[i][j] = fma chain over p of a(i, p) b(p, j).
template <class A, class B>
std::vector<float> reference(std::vector<float> c, A a, B b, std::size_t m, std::size_t k,
                             std::size_t n) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      float acc = c[i * n + j];
      for (std::size_t p = 0; p < k; ++p)
        acc = std::fma(a(i, p), b(p, j), acc);
      c[i * n + j] = acc;
    }
  return c;
}

// Restores the process's kernel when a test ends.
struct KernelGuard {
  GemmKernel saved = gemm_kernel();
  ~KernelGuard() { set_gemm_kernel(saved); }
};

TEST_CASE("gemm: every kernel gives the definition's bits, whatever the shape") {
  KernelGuard guard;
  Rng rng(5);
  int checked_shapes = 0;
  for (const GemmKernel kernel : {GemmKernel::portable, GemmKernel::avx2, GemmKernel::avx512}) {
    if (!gemm_kernel_available(kernel)) continue;
    set_gemm_kernel(kernel);
    CAPTURE(gemm_kernel_name(kernel));
    // Rows across the 6- and 8-row tiles, columns across the 8-, 16- and 32-column ones.
    for (const std::size_t m : {1u, 5u, 6u, 7u, 9u, 17u, 57u})
      for (const std::size_t k : {0u, 1u, 3u, 40u})
        for (const std::size_t n : {1u, 3u, 8u, 13u, 16u, 24u, 31u, 32u, 33u, 70u}) {
          CAPTURE(m);
          CAPTURE(k);
          CAPTURE(n);
          const std::vector<float> c0 = random_values(m * n, rng);
          const std::vector<float> x = random_values(m * k, rng), y = random_values(k * n, rng);
          // C += A B: A = x (m x k), B = y (k x n).
          std::vector<float> c = c0;
          gemm_nn<float>(c, x, y, m, k, n);
          CHECK(c == reference(
                         c0, [&](auto i, auto p) { return x[i * k + p]; },
                         [&](auto p, auto j) { return y[p * n + j]; }, m, k, n));
          // C += Aᵀ B: A = x read as k x m.
          c = c0;
          gemm_tn<float>(c, x, y, m, k, n);
          CHECK(c == reference(
                         c0, [&](auto i, auto p) { return x[p * m + i]; },
                         [&](auto p, auto j) { return y[p * n + j]; }, m, k, n));
          // C += A Bᵀ: B = y read as n x k.
          c = c0;
          gemm_nt<float>(c, x, y, m, k, n);
          CHECK(c == reference(
                         c0, [&](auto i, auto p) { return x[i * k + p]; },
                         [&](auto p, auto j) { return y[j * k + p]; }, m, k, n));
          ++checked_shapes;
        }
  }
  CHECK(checked_shapes >= 240);  // the portable kernel's shapes at least
}

TEST_CASE("gemm: the product is the product (float against double)") {
  Rng rng(9);
  const std::size_t m = 37, k = 129, n = 45;
  const std::vector<float> a = random_values(m * k, rng), b = random_values(k * n, rng);
  std::vector<float> c(m * n, 0.0f);
  gemm_nn<float>(c, a, b, m, k, n);
  std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()), cd(m * n, 0.0);
  gemm_nn<double>(cd, ad, bd, m, k, n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double expected = 0;
      for (std::size_t p = 0; p < k; ++p)
        expected += ad[i * k + p] * bd[p * n + j];
      REQUIRE(cd[i * n + j] == doctest::Approx(expected).epsilon(1e-12));
      REQUIRE(c[i * n + j] == doctest::Approx(expected).epsilon(1e-4));
    }
}

TEST_CASE("gemm: kernel names, and a kernel the CPU lacks is refused") {
  CHECK(parse_gemm_kernel("avx2") == GemmKernel::avx2);
  CHECK(gemm_kernel_name(parse_gemm_kernel("avx512")) == "avx512");
  CHECK_THROWS_WITH_AS(parse_gemm_kernel("sse"),
                       "unknown GEMM kernel 'sse' (expected portable, avx2 or avx512)",
                       std::invalid_argument);
  CHECK(gemm_kernel_available(GemmKernel::portable));
  KernelGuard guard;
  for (const GemmKernel kernel : {GemmKernel::avx2, GemmKernel::avx512})
    if (!gemm_kernel_available(kernel))
      CHECK_THROWS_AS(set_gemm_kernel(kernel), std::invalid_argument);
}

}  // namespace
}  // namespace memplace::nn
