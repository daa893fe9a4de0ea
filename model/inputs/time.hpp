// Simulated time is kept in integer femtoseconds.
//
// Integer time makes every sum exact and independent of summation order, so the full and the
// incremental evaluators agree bit for bit and results do not depend on the thread count.
// int64 femtoseconds reach 2.5 hours, far beyond any inference latency.
#pragma once

#include <cmath>
#include <cstdint>

namespace memplace {

using TimeFs = std::int64_t;
inline constexpr double kFsPerSecond = 1e15;

// Time to move `amount` units at `rate` units per second, rounded up to a whole femtosecond
// (rounding up keeps the lower bound, which rounds down, a true bound).
inline TimeFs duration_fs(std::int64_t amount, double rate) {
  if (amount == 0) return 0;
  const long double fs = static_cast<long double>(amount) * 1e15L / static_cast<long double>(rate);
  return static_cast<TimeFs>(std::ceil(fs));
}

inline double to_seconds(TimeFs t) {
  return static_cast<double>(t) / kFsPerSecond;
}
inline double to_microseconds(TimeFs t) {
  return static_cast<double>(t) / 1e9;
}

}  // namespace memplace
