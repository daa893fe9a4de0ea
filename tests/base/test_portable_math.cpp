// base/portable_math.hpp: accuracy against long double references, exact special values, and the
// bits themselves (a golden hash: the functions exist to give the same bits on every CPU, so a
// compiler flag that contracted their operations into FMAs would show here).
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "base/fnv1a.hpp"
#include "base/portable_math.hpp"
#include "base/rng.hpp"

namespace memplace {
namespace {

// Distance in units in the last place between two finite doubles of the same sign.
std::int64_t ulps(double a, double b) {
  const auto ia = std::bit_cast<std::int64_t>(a), ib = std::bit_cast<std::int64_t>(b);
  return ia > ib ? ia - ib : ib - ia;
}

template <class Ours, class Reference>
std::int64_t worst_ulps(Ours ours, Reference reference, double lo, double hi, int samples) {
  Rng rng(11);
  std::int64_t worst = 0;
  for (int i = 0; i < samples; ++i) {
    const double x = lo + (hi - lo) * rng.uniform01();
    const double expected = static_cast<double>(reference(static_cast<long double>(x)));
    if (expected == 0.0) continue;
    worst = std::max(worst, ulps(ours(x), expected));
  }
  return worst;
}

TEST_CASE("portable math: within 2 ulp of long double references over wide ranges") {
  constexpr int n = 200000;
  const auto exp = [](double x) { return portable::exp(x); };
  const auto expl = [](long double x) { return std::exp(x); };
  CHECK(worst_ulps(exp, expl, -1.0, 1.0, n) <= 2);
  CHECK(worst_ulps(exp, expl, -700.0, 700.0, n) <= 2);
  CHECK(worst_ulps(exp, expl, -745.0, -708.0, n) <= 2);  // subnormal results

  const auto log = [](double x) { return portable::log(x); };
  const auto logl = [](long double x) { return std::log(x); };
  CHECK(worst_ulps(log, logl, 0.5, 2.0, n) <= 2);
  CHECK(worst_ulps(log, logl, 1e-300, 1e300, n) <= 2);
  CHECK(worst_ulps(log, logl, 1e3, 1e9, n) <= 2);

  const auto log2 = [](double x) { return portable::log2(x); };
  const auto log2l = [](long double x) { return std::log2(x); };
  CHECK(worst_ulps(log2, log2l, 0.6, 1.9, n) <= 2);
  CHECK(worst_ulps(log2, log2l, 1.0, 1e12, n) <= 2);

  const auto cos = [](double t) { return portable::cos_2pi(t); };
  const auto cosl = [](long double t) { return std::cos(6.283185307179586476925286766559L * t); };
  // Near the zeros of cos a relative measure is meaningless; away from them, 2 ulp.
  CHECK(worst_ulps(cos, cosl, 0.0, 0.2, n) <= 2);
  CHECK(worst_ulps(cos, cosl, 0.3, 0.7, n) <= 2);
  CHECK(worst_ulps(cos, cosl, -5.2, -4.8, n) <= 2);

  Rng rng(3);
  for (int i = 0; i < 10000; ++i) {
    const double x = 0.01 + 2.0 * rng.uniform01(), y = -50.0 + 100.0 * rng.uniform01();
    const double expected = static_cast<double>(std::pow(static_cast<long double>(x), y));
    // e^(y log x) carries the rounding of y log x: relative error ~ |y log x| ulp.
    CHECK(std::fabs(portable::pow_positive(x, y) / expected - 1.0) <
          4e-16 * (1.0 + std::fabs(y * std::log(x))));
  }
}

TEST_CASE("portable math: exact and special values") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  CHECK(portable::exp(0.0) == 1.0);
  CHECK(portable::exp(-inf) == 0.0);
  CHECK(portable::exp(inf) == inf);
  CHECK(portable::exp(710.0) == inf);
  CHECK(portable::exp(-746.0) == 0.0);
  CHECK(std::isnan(portable::exp(std::nan(""))));
  CHECK(portable::log(1.0) == 0.0);
  CHECK(portable::log(0.0) == -inf);
  CHECK(portable::log(inf) == inf);
  CHECK(std::isnan(portable::log(-1.0)));
  CHECK(std::isnan(portable::log(std::nan(""))));
  CHECK(portable::log(std::numeric_limits<double>::denorm_min()) == doctest::Approx(-744.44007));
  for (int k = -1074; k <= 1023; ++k)
    REQUIRE(portable::log2(std::ldexp(1.0, k)) == k);
  CHECK(portable::log2(0.0) == -inf);
  CHECK(std::isnan(portable::log2(-2.0)));
  CHECK(portable::cos_2pi(0.0) == 1.0);
  CHECK(portable::cos_2pi(0.25) == 0.0);
  CHECK(portable::cos_2pi(0.5) == -1.0);
  CHECK(portable::cos_2pi(3.0) == 1.0);
  CHECK(portable::cos_2pi(-0.75) == 0.0);
  CHECK(portable::pow_positive(2.0, 0.0) == 1.0);
}

// std::fmaf is exactly rounded wherever it runs (the CPU's FMA, or glibc's emulation), so it is
// the reference, bit for bit, over random bit patterns (every exponent, subnormals, infinities),
// near-cancellations (c close to -a*b, where a wrong rounding shows) and the values a network
// multiplies.
TEST_CASE("portable math: fma_float is exactly rounded (std::fma's bits)") {
  Rng rng(17);
  const auto random_float = [&] {
    return std::bit_cast<float>(static_cast<std::uint32_t>(rng.next() >> 32));
  };
  const auto same = [](float x, float y) {
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y) ||
           (std::isnan(x) && std::isnan(y));
  };
  int mismatches = 0;
  int inexact_sums = 0;  // cases where the double sum alone was inexact: the rounding to odd acts
  for (int i = 0; i < 1'000'000; ++i) {
    const float a = random_float(), b = random_float();
    float c = random_float();
    if (i % 3 == 1) {
      c = -static_cast<float>(static_cast<double>(a) * b);  // near-cancellation
      c = std::bit_cast<float>(std::bit_cast<std::uint32_t>(c) + static_cast<int>(rng.uniform(5)) -
                               2);
    } else if (i % 3 == 2) {
      c = static_cast<float>(rng.uniform01() * 2 - 1);
    }
    const float x = i % 3 == 2 ? static_cast<float>(rng.uniform01() * 2 - 1) : a;
    const float y = i % 3 == 2 ? static_cast<float>(rng.uniform01() * 2 - 1) : b;
    const double sum = static_cast<double>(x) * y + c;
    inexact_sums += std::isfinite(sum) && sum - static_cast<double>(x) * y != c;
    mismatches += !same(portable::fma_float(x, y, c), std::fma(x, y, c));
  }
  CHECK(mismatches == 0);
  CHECK(inexact_sums > 100'000);
  // Exact zeros keep fma's sign rules; infinities and NaN pass through.
  CHECK(std::signbit(portable::fma_float(-0.0f, 1.0f, -0.0f)));
  CHECK(!std::signbit(portable::fma_float(1.0f, 1.0f, -1.0f)));
  CHECK(portable::fma_float(1e30f, 1e30f, 0.0f) == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(portable::fma_float(std::numeric_limits<float>::infinity(), 0.0f, 1.0f)));
}

TEST_CASE("portable math: the same bits as when these tests were written, on any CPU") {
  Fnv1a64 hash;
  Rng rng(2026);
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.uniform01();
    hash.add(std::bit_cast<std::int64_t>(portable::exp(-50.0 + 100.0 * u)));
    hash.add(std::bit_cast<std::int64_t>(portable::log(1e-9 + 1e9 * u)));
    hash.add(std::bit_cast<std::int64_t>(portable::log2(1.0 + 1e6 * u)));
    hash.add(std::bit_cast<std::int64_t>(portable::cos_2pi(u)));
  }
  CHECK(hash.value() == 0x28a98eb2f5b3121bull);
}

}  // namespace
}  // namespace memplace
