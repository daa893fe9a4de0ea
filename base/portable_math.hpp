// exp, log, log2, pow and cos(2πt) in double, and fma in float, that give the same bits on every
// x86-64 CPU.
//
// glibc picks its double exp/log/pow/sin/cos/tanh at load time by CPU (an FMA variant where the
// CPU has FMA), and the variants differ in the last bit on some inputs: an agent that samples or
// scores with them is not reproducible across machines (docs/gnn.md, "Identical results on any
// CPU"). These are plain IEEE additions, multiplications and divisions in a fixed order (the
// project compiles with -ffp-contract=off, so GCC never fuses them into FMAs), plus the exactly
// rounded std::ldexp / std::frexp / std::nearbyint. Accuracy is within 2 ulp of the correctly
// rounded value (tests/base/test_portable_math.cpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace memplace::portable {

namespace detail {

// ln 2 split so that k * kLn2High is exact for |k| < 2^21 (its last 21 bits are zero).
inline constexpr double kLn2High = 6.93147180369123816490e-01;
inline constexpr double kLn2Low = 1.90821492927058770002e-10;
inline constexpr double kLog2E = 1.44269504088896338700e+00;
inline constexpr double kTwoPi = 6.28318530717958623200e+00;

// log(m) for m = 1 + f in [sqrt(1/2), sqrt(2)): with s = f / (2 + f), log(1 + f) = 2 atanh(s) =
// 2s + s R(s²), and 2s = f - s f, so log(1 + f) = f - s (f - R): the rounded part is a small
// correction to the exact f.
inline double log_near_one(double f) {
  const double s = f / (2.0 + f);
  const double z = s * s;
  // R = 2z/3 + 2z²/5 + ... + 2z¹¹/23; |s| <= 0.1716, so the next term is below 1e-18.
  double r = 2.0 / 23;
  for (const double c : {2.0 / 21, 2.0 / 19, 2.0 / 17, 2.0 / 15, 2.0 / 13, 2.0 / 11, 2.0 / 9,
                         2.0 / 7, 2.0 / 5, 2.0 / 3})
    r = r * z + c;
  r *= z;
  return f - s * (f - r);
}

// The values both logarithms give outside finite x > 0: NaN for NaN and negatives, +inf for +inf,
// -inf for zero. False (and `result` untouched) for finite x > 0.
inline bool log_special_case(double x, double& result) {
  if (std::isnan(x) || x == std::numeric_limits<double>::infinity())
    result = x;
  else if (x < 0.0)
    result = std::numeric_limits<double>::quiet_NaN();
  else if (x == 0.0)
    result = -std::numeric_limits<double>::infinity();
  else
    return false;
  return true;
}

// x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), for finite x > 0.
inline double split_exponent(double x, int& e) {
  double m = std::frexp(x, &e);  // m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --e;
  }
  return m - 1.0;  // exact (Sterbenz)
}

// cos and sin of θ in [0, π/4] by their Taylor series (terms beyond those kept are below 1e-17).
inline double cos_small(double t) {
  const double z = t * t;
  double p = 1.0 / 6402373705728000.0;  // 1/18!
  for (const double c : {-1.0 / 20922789888000.0, 1.0 / 87178291200.0, -1.0 / 479001600.0,
                         1.0 / 3628800.0, -1.0 / 40320.0, 1.0 / 720.0, -1.0 / 24.0, 1.0 / 2.0})
    p = p * z + c;
  return 1.0 - z * p;
}
inline double sin_small(double t) {
  const double z = t * t;
  double p = -1.0 / 121645100408832000.0;  // -1/19!
  for (const double c : {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0,
                         -1.0 / 39916800.0, 1.0 / 362880.0, -1.0 / 5040.0, 1.0 / 120.0})
    p = p * z + c;
  return t - t * (z * (1.0 / 6.0 - z * p));
}

}  // namespace detail

// e^x.
inline double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // x = k ln 2 + r with |r| <= ln2 / 2; e^x = 2^k e^r.
  const double k = std::nearbyint(x * detail::kLog2E);
  const double r = (x - k * detail::kLn2High) - k * detail::kLn2Low;
  // e^r - 1 by Taylor to r^13/13! (|r| <= 0.347: the rest is below 1e-17 of the result).
  double p = 1.0 / 6227020800.0;
  for (const double c :
       {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0,
        1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 1.0 / 2.0, 1.0})
    p = p * r + c;
  return std::ldexp(1.0 + r * p, static_cast<int>(k));
}

// Natural logarithm: NaN below 0, -inf at 0.
inline double log(double x) {
  if (double special = 0; detail::log_special_case(x, special)) return special;
  int e = 0;
  const double f = detail::split_exponent(x, e);
  const double k = e;
  return k * detail::kLn2High + (detail::log_near_one(f) + k * detail::kLn2Low);
}

// Base-2 logarithm, exact at powers of two.
inline double log2(double x) {
  if (double special = 0; detail::log_special_case(x, special)) return special;
  int e = 0;
  const double f = detail::split_exponent(x, e);
  return static_cast<double>(e) + detail::log_near_one(f) * detail::kLog2E;
}

// x^y for x > 0, as e^(y log x): the error grows with |y log x| (1e-13 relative at 1000).
inline double pow_positive(double x, double y) {
  return exp(y * log(x));
}

// cos(2π t), reduced exactly on t (for Box-Muller, whose angle is 2π times a uniform).
inline double cos_2pi(double t) {
  double r = std::fabs(t - std::nearbyint(t));  // in [0, 0.5], exact
  const bool negate = r > 0.25;
  if (negate) r = 0.5 - r;  // cos(π - θ) = -cos θ
  const double v = r <= 0.125 ? detail::cos_small(detail::kTwoPi * r)
                              : detail::sin_small(detail::kTwoPi * (0.25 - r));
  return negate ? -v : v;
}

// fma(a, b, c) in float, exactly rounded, with double additions and multiplications alone: the
// product of two floats is exact in double (24 + 24 <= 53 bits); the sum is rounded to odd (the
// rounded sum, moved one ulp toward the exact one when it was inexact and its last bit even; the
// exact error from Knuth's two-sum); rounding that to float is then exactly rounded (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums", 2008: double has more than the float
// precision + 2 bits). On a CPU without FMA, glibc's fmaf emulates it by switching the rounding
// mode on every call, about 20x slower (the portable GEMM kernel spent 94 % of its time there).
inline float fma_float(float a, float b, float c) {
  const double product = static_cast<double>(a) * static_cast<double>(b);
  const double addend = c;
  const double sum = product + addend;
  const double addend_part = sum - product;
  const double error = (product - (sum - addend_part)) + (addend - addend_part);
  // Branch-free: whether to move is a coin flip on real data, and a mispredicted branch per
  // element cost 3x. (sum - sum != 0 for infinities and NaN, which pass through unchanged.)
  const auto bits = std::bit_cast<std::uint64_t>(sum);
  const std::uint64_t move = (error != 0) & ((bits & 1) == 0) & (sum - sum == 0);
  const std::uint64_t toward = (error > 0) == (sum > 0) ? 1 : ~std::uint64_t{0};
  return static_cast<float>(std::bit_cast<double>(bits + (toward & (std::uint64_t{0} - move))));
}

}  // namespace memplace::portable
