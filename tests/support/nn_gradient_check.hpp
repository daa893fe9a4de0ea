// Central finite differences against analytic gradients, in double precision.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <string>

namespace memplace::testing {

// For every entry k of `values` (or every `stride`-th), compares analytic[k] with
// (loss(values + e_k·eps) - loss(values - e_k·eps)) / 2eps, to a relative 1e-6 (absolute floor
// 1e-8). `loss` reads `values` in place. Returns the largest relative error seen.
inline double check_gradient(const std::string& name, std::span<double> values,
                             std::span<const double> analytic, const std::function<double()>& loss,
                             std::size_t stride = 1) {
  REQUIRE(values.size() == analytic.size());
  constexpr double kEps = 1e-6;
  double worst = 0;
  for (std::size_t k = 0; k < values.size(); k += stride) {
    const double saved = values[k];
    values[k] = saved + kEps;
    const double up = loss();
    values[k] = saved - kEps;
    const double down = loss();
    values[k] = saved;
    const double numeric = (up - down) / (2 * kEps);
    const double error = std::abs(numeric - analytic[k]) /
                         std::max({1e-2, std::abs(numeric), std::abs(analytic[k])});
    worst = std::max(worst, error);
    if (error > 1e-6) {
      FAIL_CHECK(name << "[" << k << "]: analytic " << analytic[k] << ", numeric " << numeric);
      break;
    }
  }
  return worst;
}

}  // namespace memplace::testing
