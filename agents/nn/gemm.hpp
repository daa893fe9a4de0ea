// The GNN's dense products, with one summation order on every CPU (docs/gnn.md, "Identical
// results on any CPU").
//
// Every product accumulates into C, and every element of C ends as the same chain of fused
// multiply-adds in increasing depth order:
//   C[i][j] = fma(a(i, k-1), b(k-1, j), ... fma(a(i, 1), b(1, j), fma(a(i, 0), b(0, j), C[i][j])))
// A fused multiply-add is exactly rounded, so the chain has one value. The kernels below only
// decide how many independent chains run at once (1, 8 or 16 lanes, several rows): they give the
// same bits and differ in speed. A BLAS does not promise that: its kernels, blocking and summation
// order depend on the CPU it detects, which made the same training run differ between an AMD and
// an Intel machine.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace memplace::nn {

enum class GemmKernel {
  portable,  // an exactly rounded fma per element (portable::fma_float in float): any x86-64
  avx2,      // AVX2 + FMA, 6 rows x 16 columns at a time
  avx512,    // AVX-512F, 8 rows x 32 columns at a time
};

std::string_view gemm_kernel_name(GemmKernel kernel);
// "portable" | "avx2" | "avx512"; anything else throws std::invalid_argument naming the text.
GemmKernel parse_gemm_kernel(std::string_view text);
bool gemm_kernel_available(GemmKernel kernel);
// The kernel float products use: the environment variable MEMPLACE_GEMM_KERNEL if set (checked:
// an unknown name or one this CPU cannot run throws std::invalid_argument), else the fastest this
// CPU runs. Read once per process.
GemmKernel gemm_kernel();
// Overrides the choice for the whole process (benchmarks and tests); throws std::invalid_argument
// if this CPU cannot run `kernel`. Not to be called while products run on other threads.
void set_gemm_kernel(GemmKernel kernel);

// Row-major, C is m x n. Double always runs the portable kernel (gradient checks only).
// C += A B,   A is m x k, B is k x n.
template <class T>
void gemm_nn(std::span<T> c, std::span<const T> a, std::span<const T> b, std::size_t m,
             std::size_t k, std::size_t n);
// C += Aᵀ B,  A is k x m, B is k x n.
template <class T>
void gemm_tn(std::span<T> c, std::span<const T> a, std::span<const T> b, std::size_t m,
             std::size_t k, std::size_t n);
// C += A Bᵀ,  A is m x k, B is n x k.
template <class T>
void gemm_nt(std::span<T> c, std::span<const T> a, std::span<const T> b, std::size_t m,
             std::size_t k, std::size_t n);

}  // namespace memplace::nn
