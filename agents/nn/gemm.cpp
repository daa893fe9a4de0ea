#include "agents/nn/gemm.hpp"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "base/portable_math.hpp"

namespace memplace::nn {

namespace {

// A's element (row i, depth p) is at data[i * row_step + p * depth_step]: A itself for C += A B,
// A read transposed for C += Aᵀ B. B is always k x n, row-major.
template <class T>
struct LeftOperand {
  const T* data;
  std::size_t row_step, depth_step;
};

// The definition itself, row by row (for each depth, every column of the row), so each element's
// chain runs in depth order. In float, fma_float: exactly rounded like the CPU's FMA, without it.
template <class T>
void portable_gemm(T* c, LeftOperand<T> a, const T* b, std::size_t m, std::size_t k,
                   std::size_t n) {
  for (std::size_t i = 0; i < m; ++i) {
    T* row = c + i * n;
    for (std::size_t p = 0; p < k; ++p) {
      const T factor = a.data[i * a.row_step + p * a.depth_step];
      const T* b_row = b + p * n;
      for (std::size_t j = 0; j < n; ++j)
        if constexpr (std::is_same_v<T, float>)
          row[j] = portable::fma_float(factor, b_row[j], row[j]);
        else
          row[j] = std::fma(factor, b_row[j], row[j]);
    }
  }
}

// The tiles' loops over rows and vectors are unrolled (the pragmas) so that the accumulators
// live in registers. `ldc` and `ldb` are the row lengths of C and B: both n in these products,
// which is why the row dispatchers pass C's for both.

// m rows cut into the fewest blocks of at most `most` rows, their sizes differing by at most one:
// 57 rows in tiles of 8 are one block of 8 and seven of 7, not seven of 8 and one of 1, whose
// tile does one multiply-add per load of B where a full tile does eight. Each element's chain is
// the same in any cut, so the bits are too.
struct RowBlocks {
  std::size_t count, shorter, longer_blocks;
  RowBlocks(std::size_t m, std::size_t most)
      : count((m + most - 1) / most), shorter(m / count), longer_blocks(m % count) {}
  std::size_t rows(std::size_t block) const { return shorter + (block < longer_blocks ? 1 : 0); }
};

// ---- AVX2 + FMA: a tile of R rows x V vectors of 8 columns, the last vector masked when the
// tile is narrower (lanes past `width` are neither read nor written).
template <int R, int V, bool Masked>
__attribute__((target("avx2,fma"))) void avx2_tile(float* c, std::size_t ldc, LeftOperand<float> a,
                                                   const float* b, std::size_t ldb, std::size_t k,
                                                   std::size_t width) {
  __m256i mask = _mm256_set1_epi32(-1);
  if constexpr (Masked) {
    const int last = static_cast<int>(width) - 8 * (V - 1);
    mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(last), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  __m256 acc[R][V];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v)
      acc[r][v] = Masked && v == V - 1 ? _mm256_maskload_ps(c + r * ldc + 8 * v, mask)
                                       : _mm256_loadu_ps(c + r * ldc + 8 * v);
  for (std::size_t p = 0; p < k; ++p) {
    __m256 b_vec[V];
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v)
      b_vec[v] = Masked && v == V - 1 ? _mm256_maskload_ps(b + p * ldb + 8 * v, mask)
                                      : _mm256_loadu_ps(b + p * ldb + 8 * v);
    const float* a_col = a.data + p * a.depth_step;
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const __m256 factor = _mm256_broadcast_ss(a_col + r * a.row_step);
#pragma GCC unroll 16
      for (int v = 0; v < V; ++v)
        acc[r][v] = _mm256_fmadd_ps(factor, b_vec[v], acc[r][v]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
      float* to = c + r * ldc + 8 * v;
      if (Masked && v == V - 1)
        _mm256_maskstore_ps(to, mask, acc[r][v]);
      else
        _mm256_storeu_ps(to, acc[r][v]);
    }
}

template <int V, bool Masked>
__attribute__((target("avx2,fma"))) void avx2_rows(std::size_t rows, float* c, std::size_t ldc,
                                                   LeftOperand<float> a, const float* b,
                                                   std::size_t k, std::size_t width) {
  switch (rows) {
    case 6:
      return avx2_tile<6, V, Masked>(c, ldc, a, b, ldc, k, width);
    case 5:
      return avx2_tile<5, V, Masked>(c, ldc, a, b, ldc, k, width);
    case 4:
      return avx2_tile<4, V, Masked>(c, ldc, a, b, ldc, k, width);
    case 3:
      return avx2_tile<3, V, Masked>(c, ldc, a, b, ldc, k, width);
    case 2:
      return avx2_tile<2, V, Masked>(c, ldc, a, b, ldc, k, width);
    default:
      return avx2_tile<1, V, Masked>(c, ldc, a, b, ldc, k, width);
  }
}

__attribute__((target("avx2,fma"))) void avx2_gemm(float* c, LeftOperand<float> a, const float* b,
                                                   std::size_t m, std::size_t k, std::size_t n) {
  constexpr std::size_t kRows = 6, kColumns = 16;
  // Column strips outside, so a strip of B (k x 16) stays in L1 while every row block uses it.
  for (std::size_t j = 0; j < n; j += kColumns) {
    const std::size_t width = std::min(kColumns, n - j);
    const RowBlocks blocks(m, kRows);
    for (std::size_t block = 0, i = 0; block < blocks.count; i += blocks.rows(block++)) {
      const std::size_t rows = blocks.rows(block);
      float* tile = c + i * n + j;
      const LeftOperand<float> a_rows{a.data + i * a.row_step, a.row_step, a.depth_step};
      if (width == 16)
        avx2_rows<2, false>(rows, tile, n, a_rows, b + j, k, width);
      else if (width > 8)
        avx2_rows<2, true>(rows, tile, n, a_rows, b + j, k, width);
      else if (width == 8)
        avx2_rows<1, false>(rows, tile, n, a_rows, b + j, k, width);
      else
        avx2_rows<1, true>(rows, tile, n, a_rows, b + j, k, width);
    }
  }
}

// ---- AVX-512F: a tile of R rows x V vectors of 16 columns, the last vector masked.
template <int R, int V>
__attribute__((target("avx512f"))) void avx512_tile(float* c, std::size_t ldc, LeftOperand<float> a,
                                                    const float* b, std::size_t ldb, std::size_t k,
                                                    std::size_t width) {
  const std::size_t last = width - 16 * (V - 1);  // 1..16 columns in the last vector
  const __mmask16 mask = static_cast<__mmask16>((1u << last) - 1u);
  __m512 acc[R][V];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v)
      acc[r][v] = v == V - 1 ? _mm512_maskz_loadu_ps(mask, c + r * ldc + 16 * v)
                             : _mm512_loadu_ps(c + r * ldc + 16 * v);
  for (std::size_t p = 0; p < k; ++p) {
    __m512 b_vec[V];
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v)
      b_vec[v] = v == V - 1 ? _mm512_maskz_loadu_ps(mask, b + p * ldb + 16 * v)
                            : _mm512_loadu_ps(b + p * ldb + 16 * v);
    const float* a_col = a.data + p * a.depth_step;
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const __m512 factor = _mm512_set1_ps(a_col[r * a.row_step]);
#pragma GCC unroll 16
      for (int v = 0; v < V; ++v)
        acc[r][v] = _mm512_fmadd_ps(factor, b_vec[v], acc[r][v]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
      float* to = c + r * ldc + 16 * v;
      if (v == V - 1)
        _mm512_mask_storeu_ps(to, mask, acc[r][v]);
      else
        _mm512_storeu_ps(to, acc[r][v]);
    }
}

template <int V>
__attribute__((target("avx512f"))) void avx512_rows(std::size_t rows, float* c, std::size_t ldc,
                                                    LeftOperand<float> a, const float* b,
                                                    std::size_t k, std::size_t width) {
  switch (rows) {
    case 8:
      return avx512_tile<8, V>(c, ldc, a, b, ldc, k, width);
    case 7:
      return avx512_tile<7, V>(c, ldc, a, b, ldc, k, width);
    case 6:
      return avx512_tile<6, V>(c, ldc, a, b, ldc, k, width);
    case 5:
      return avx512_tile<5, V>(c, ldc, a, b, ldc, k, width);
    case 4:
      return avx512_tile<4, V>(c, ldc, a, b, ldc, k, width);
    case 3:
      return avx512_tile<3, V>(c, ldc, a, b, ldc, k, width);
    case 2:
      return avx512_tile<2, V>(c, ldc, a, b, ldc, k, width);
    default:
      return avx512_tile<1, V>(c, ldc, a, b, ldc, k, width);
  }
}

__attribute__((target("avx512f"))) void avx512_gemm(float* c, LeftOperand<float> a, const float* b,
                                                    std::size_t m, std::size_t k, std::size_t n) {
  constexpr std::size_t kRows = 8, kColumns = 32;
  for (std::size_t j = 0; j < n; j += kColumns) {
    const std::size_t width = std::min(kColumns, n - j);
    const RowBlocks blocks(m, kRows);
    for (std::size_t block = 0, i = 0; block < blocks.count; i += blocks.rows(block++)) {
      const std::size_t rows = blocks.rows(block);
      float* tile = c + i * n + j;
      const LeftOperand<float> a_rows{a.data + i * a.row_step, a.row_step, a.depth_step};
      if (width > 16)
        avx512_rows<2>(rows, tile, n, a_rows, b + j, k, width);
      else
        avx512_rows<1>(rows, tile, n, a_rows, b + j, k, width);
    }
  }
}

// ---- Bᵀ for C += A Bᵀ: to[p * rows + j] = from[j * cols + p], a rows x cols matrix turned.

// In 16 x 16 blocks, so that reads and writes both stay within a few cache lines.
template <class T>
void transpose_scalar(T* to, const T* from, std::size_t rows, std::size_t cols, std::size_t j0,
                      std::size_t p0) {
  constexpr std::size_t kBlock = 16;
  for (std::size_t j = j0; j < std::min(rows, j0 + kBlock); ++j)
    for (std::size_t p = p0; p < std::min(cols, p0 + kBlock); ++p)
      to[p * rows + j] = from[j * cols + p];
}

// A whole 16 x 16 block in registers: 64 shuffles instead of 256 scalar loads and stores, which
// made the copy 14 % of the policy's forward + backward on resnet50 (its 57 rows are few against
// the 384 x 128 weights turned for every product). GCC 12's shuffle intrinsics start from an
// "undefined" register that its own -W(maybe-)uninitialized flags once inlined (the sanitizer
// build too): silenced here alone. Clang (the fuzz build) has no -Wmaybe-uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) void transpose_block_avx512(float* to, const float* from,
                                                               std::size_t rows, std::size_t cols) {
  __m512 r[16], t[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
    r[i] = _mm512_loadu_ps(from + i * cols);
  }
  // Pairs of rows interleaved, then pairs of pairs: r[4q + e] holds, in each 128-bit lane L,
  // element 4L + e of rows 4q..4q+3.
#pragma GCC unroll 8
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
#pragma GCC unroll 4
  for (int q = 0; q < 4; ++q) {
    const __m512d lo01 = _mm512_castps_pd(t[4 * q]), hi01 = _mm512_castps_pd(t[4 * q + 1]);
    const __m512d lo23 = _mm512_castps_pd(t[4 * q + 2]), hi23 = _mm512_castps_pd(t[4 * q + 3]);
    r[4 * q] = _mm512_castpd_ps(_mm512_unpacklo_pd(lo01, lo23));
    r[4 * q + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(lo01, lo23));
    r[4 * q + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(hi01, hi23));
    r[4 * q + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(hi01, hi23));
  }
  // Then the 128-bit lanes: element 4L + e of all 16 rows into one register.
#pragma GCC unroll 4
  for (int e = 0; e < 4; ++e) {
    const __m512 even_lo = _mm512_shuffle_f32x4(r[e], r[4 + e], 0x88);  // lanes 0, 2 of rows 0-7
    const __m512 odd_lo = _mm512_shuffle_f32x4(r[e], r[4 + e], 0xdd);   // lanes 1, 3
    const __m512 even_hi = _mm512_shuffle_f32x4(r[8 + e], r[12 + e], 0x88);
    const __m512 odd_hi = _mm512_shuffle_f32x4(r[8 + e], r[12 + e], 0xdd);
    _mm512_storeu_ps(to + (e + 0) * rows, _mm512_shuffle_f32x4(even_lo, even_hi, 0x88));
    _mm512_storeu_ps(to + (e + 8) * rows, _mm512_shuffle_f32x4(even_lo, even_hi, 0xdd));
    _mm512_storeu_ps(to + (e + 4) * rows, _mm512_shuffle_f32x4(odd_lo, odd_hi, 0x88));
    _mm512_storeu_ps(to + (e + 12) * rows, _mm512_shuffle_f32x4(odd_lo, odd_hi, 0xdd));
  }
}
#pragma GCC diagnostic pop

template <class T>
void transpose(T* to, const T* from, std::size_t rows, std::size_t cols, bool avx512) {
  constexpr std::size_t kBlock = 16;
  for (std::size_t j0 = 0; j0 < rows; j0 += kBlock)
    for (std::size_t p0 = 0; p0 < cols; p0 += kBlock) {
      if constexpr (std::is_same_v<T, float>)
        if (avx512 && j0 + kBlock <= rows && p0 + kBlock <= cols) {
          transpose_block_avx512(to + p0 * rows + j0, from + j0 * cols + p0, rows, cols);
          continue;
        }
      transpose_scalar(to, from, rows, cols, j0, p0);
    }
}

// ---- Kernel choice.

GemmKernel fastest_available() {
  if (gemm_kernel_available(GemmKernel::avx512)) return GemmKernel::avx512;
  if (gemm_kernel_available(GemmKernel::avx2)) return GemmKernel::avx2;
  return GemmKernel::portable;
}

GemmKernel checked(GemmKernel kernel, std::string_view what) {
  if (!gemm_kernel_available(kernel))
    throw std::invalid_argument(std::string(what) + ": this CPU cannot run the '" +
                                std::string(gemm_kernel_name(kernel)) + "' kernel");
  return kernel;
}

GemmKernel initial_kernel() {
  const char* forced = std::getenv("MEMPLACE_GEMM_KERNEL");
  if (forced == nullptr || *forced == '\0') return fastest_available();
  const std::string what = std::string("MEMPLACE_GEMM_KERNEL=") + forced;
  try {
    return checked(parse_gemm_kernel(forced), what);
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).starts_with(what)) throw;
    throw std::invalid_argument(what + ": " + e.what());
  }
}

std::atomic<GemmKernel>& selected() {
  static std::atomic<GemmKernel> kernel{initial_kernel()};
  return kernel;
}

template <class T>
void run(T* c, LeftOperand<T> a, const T* b, std::size_t m, std::size_t k, std::size_t n) {
  if (m == 0 || n == 0 || k == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    switch (gemm_kernel()) {
      case GemmKernel::avx512:
        return avx512_gemm(c, a, b, m, k, n);
      case GemmKernel::avx2:
        return avx2_gemm(c, a, b, m, k, n);
      case GemmKernel::portable:
        break;
    }
  }
  portable_gemm(c, a, b, m, k, n);
}

}  // namespace

std::string_view gemm_kernel_name(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::portable:
      return "portable";
    case GemmKernel::avx2:
      return "avx2";
    case GemmKernel::avx512:
      return "avx512";
  }
  throw std::invalid_argument("unknown GemmKernel");
}

GemmKernel parse_gemm_kernel(std::string_view text) {
  for (const GemmKernel kernel : {GemmKernel::portable, GemmKernel::avx2, GemmKernel::avx512})
    if (text == gemm_kernel_name(kernel)) return kernel;
  throw std::invalid_argument("unknown GEMM kernel '" + std::string(text) +
                              "' (expected portable, avx2 or avx512)");
}

bool gemm_kernel_available(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::portable:
      return true;
    case GemmKernel::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case GemmKernel::avx512:
      return __builtin_cpu_supports("avx512f");
  }
  return false;
}

GemmKernel gemm_kernel() {
  return selected().load(std::memory_order_relaxed);
}

void set_gemm_kernel(GemmKernel kernel) {
  selected().store(checked(kernel, "set_gemm_kernel"), std::memory_order_relaxed);
}

template <class T>
void gemm_nn(std::span<T> c, std::span<const T> a, std::span<const T> b, std::size_t m,
             std::size_t k, std::size_t n) {
  assert(c.size() >= m * n && a.size() >= m * k && b.size() >= k * n);
  run(c.data(), LeftOperand<T>{a.data(), k, 1}, b.data(), m, k, n);
}

template <class T>
void gemm_tn(std::span<T> c, std::span<const T> a, std::span<const T> b, std::size_t m,
             std::size_t k, std::size_t n) {
  assert(c.size() >= m * n && a.size() >= k * m && b.size() >= k * n);
  run(c.data(), LeftOperand<T>{a.data(), 1, m}, b.data(), m, k, n);
}

template <class T>
void gemm_nt(std::span<T> c, std::span<const T> a, std::span<const T> b, std::size_t m,
             std::size_t k, std::size_t n) {
  assert(c.size() >= m * n && a.size() >= m * k && b.size() >= n * k);
  // Bᵀ copied to k x n once (n k values against the product's m n k operations), so every kernel
  // reads B the same way. One buffer per thread, reused.
  thread_local std::vector<T> transposed;
  transposed.resize(k * n);
  transpose(transposed.data(), b.data(), n, k, gemm_kernel() == GemmKernel::avx512);
  run(c.data(), LeftOperand<T>{a.data(), k, 1}, transposed.data(), m, k, n);
}

#define MEMPLACE_INSTANTIATE_GEMM(T)                                                          \
  template void gemm_nn<T>(std::span<T>, std::span<const T>, std::span<const T>, std::size_t, \
                           std::size_t, std::size_t);                                         \
  template void gemm_tn<T>(std::span<T>, std::span<const T>, std::span<const T>, std::size_t, \
                           std::size_t, std::size_t);                                         \
  template void gemm_nt<T>(std::span<T>, std::span<const T>, std::span<const T>, std::size_t, \
                           std::size_t, std::size_t);
MEMPLACE_INSTANTIATE_GEMM(float)
MEMPLACE_INSTANTIATE_GEMM(double)
#undef MEMPLACE_INSTANTIATE_GEMM

}  // namespace memplace::nn
