#include "agents/nn/categorical.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/portable_math.hpp"

namespace memplace::nn {

namespace {

constexpr std::size_t kMaxMemories = 256;  // actions are std::uint8_t

[[noreturn]] void fail(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

void check_logits(const char* function, std::size_t size, std::size_t rows, std::size_t memories) {
  if (memories == 0 || memories > kMaxMemories) {
    fail(function, "memories must be in [1, 256], got " + std::to_string(memories));
  }
  // Division, not rows * memories, which could overflow.
  if (size % memories != 0 || size / memories != rows) {
    fail(function, "logits has " + std::to_string(size) + " values, rows x memories = " +
                       std::to_string(rows) + " x " + std::to_string(memories) + " expected");
  }
}

void check_count(const char* function, const char* argument, std::size_t size,
                 std::size_t expected) {
  if (size != expected) {
    fail(function, std::string(argument) + " has " + std::to_string(size) + " entries, " +
                       std::to_string(expected) + " expected");
  }
}

void check_actions(const char* function, std::span<const std::uint8_t> actions, std::size_t rows,
                   std::size_t memories) {
  check_count(function, "actions", actions.size(), rows);
  for (std::size_t r = 0; r < rows; ++r) {
    if (actions[r] >= memories) {
      fail(function, "actions[" + std::to_string(r) + "] = " + std::to_string(actions[r]) +
                         " is not a memory (memories = " + std::to_string(memories) + ")");
    }
  }
}

// One row, its maximum and log-sum-exp in double: log p_j = z_j - lse.
template <class T>
struct Row {
  std::span<const T> z;
  double max = 0;
  double sum = 0;  // Σ exp(z_j - max), >= 1: the maximum contributes exp(0)
  double lse = 0;
  double log_p(std::size_t j) const { return static_cast<double>(z[j]) - lse; }
  double p(std::size_t j) const { return portable::exp(log_p(j)); }
  double entropy() const {
    double h = 0;
    // p_j underflows to 0 before log p_j reaches -inf, so 0 * finite: never NaN.
    for (std::size_t j = 0; j < z.size(); ++j) {
      h -= p(j) * log_p(j);
    }
    return h;
  }
};

template <class T>
Row<T> row(const char* function, std::span<const T> logits, std::size_t r, std::size_t memories) {
  Row<T> out;
  out.z = logits.subspan(r * memories, memories);
  out.max = -std::numeric_limits<double>::infinity();
  for (const T z : out.z) {
    if (!std::isfinite(z)) fail(function, "logits row " + std::to_string(r) + " is not finite");
    out.max = std::max(out.max, static_cast<double>(z));
  }
  for (const T z : out.z) {
    out.sum += portable::exp(static_cast<double>(z) - out.max);
  }
  out.lse = out.max + portable::log(out.sum);
  return out;
}

}  // namespace

template <class T>
void log_softmax_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                      std::span<T> out) {
  constexpr const char* kFunction = "log_softmax_rows";
  check_logits(kFunction, logits.size(), rows, memories);
  check_count(kFunction, "out", out.size(), logits.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const Row<T> x = row(kFunction, logits, r, memories);
    for (std::size_t j = 0; j < memories; ++j) {
      out[r * memories + j] = static_cast<T>(x.log_p(j));
    }
  }
}

template <class T>
void sample_rows(std::span<const T> logits, std::size_t rows, std::size_t memories, Rng& rng,
                 std::span<std::uint8_t> out) {
  constexpr const char* kFunction = "sample_rows";
  check_logits(kFunction, logits.size(), rows, memories);
  check_count(kFunction, "out", out.size(), rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const Row<T> x = row(kFunction, logits, r, memories);
    // Inverse CDF over the unnormalised weights exp(z - max), summed in the order row() summed
    // them, so the CDF ends exactly at x.sum.
    const double target = rng.uniform01() * x.sum;
    double cumulative = 0;
    std::size_t chosen = memories;
    std::size_t last_possible = 0;
    for (std::size_t j = 0; j < memories; ++j) {
      const double w = portable::exp(static_cast<double>(x.z[j]) - x.max);
      if (w > 0) last_possible = j;
      cumulative += w;
      if (chosen == memories && target < cumulative) chosen = j;
    }
    // u * sum can round up to sum; then the last memory of non-zero weight is the answer.
    if (chosen == memories) chosen = last_possible;
    out[r] = static_cast<std::uint8_t>(chosen);
  }
}

template <class T>
void argmax_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                 std::span<std::uint8_t> out) {
  constexpr const char* kFunction = "argmax_rows";
  check_logits(kFunction, logits.size(), rows, memories);
  check_count(kFunction, "out", out.size(), rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::span<const T> z = logits.subspan(r * memories, memories);
    std::size_t best = 0;
    for (std::size_t j = 0; j < memories; ++j) {
      if (!std::isfinite(z[j])) {
        fail(kFunction, "logits row " + std::to_string(r) + " is not finite");
      }
      if (z[j] > z[best]) best = j;  // strict: ties keep the lowest index
    }
    out[r] = static_cast<std::uint8_t>(best);
  }
}

template <class T>
void log_prob_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                   std::span<const std::uint8_t> actions, std::span<double> out) {
  constexpr const char* kFunction = "log_prob_rows";
  check_logits(kFunction, logits.size(), rows, memories);
  check_actions(kFunction, actions, rows, memories);
  check_count(kFunction, "out", out.size(), rows);
  for (std::size_t r = 0; r < rows; ++r) {
    out[r] = row(kFunction, logits, r, memories).log_p(actions[r]);
  }
}

template <class T>
double log_prob(std::span<const T> logits, std::size_t rows, std::size_t memories,
                std::span<const std::uint8_t> actions) {
  constexpr const char* kFunction = "log_prob";
  check_logits(kFunction, logits.size(), rows, memories);
  check_actions(kFunction, actions, rows, memories);
  double sum = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    sum += row(kFunction, logits, r, memories).log_p(actions[r]);
  }
  return sum;
}

template <class T>
void log_prob_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                       std::span<const std::uint8_t> actions, double scale, std::span<T> dlogits) {
  constexpr const char* kFunction = "log_prob_backward";
  check_logits(kFunction, logits.size(), rows, memories);
  check_actions(kFunction, actions, rows, memories);
  check_count(kFunction, "dlogits", dlogits.size(), logits.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const Row<T> x = row(kFunction, logits, r, memories);
    for (std::size_t j = 0; j < memories; ++j) {
      const double onehot = j == actions[r] ? 1.0 : 0.0;
      dlogits[r * memories + j] += static_cast<T>(scale * (onehot - x.p(j)));
    }
  }
}

template <class T>
void entropy_rows(std::span<const T> logits, std::size_t rows, std::size_t memories,
                  std::span<double> out) {
  constexpr const char* kFunction = "entropy_rows";
  check_logits(kFunction, logits.size(), rows, memories);
  check_count(kFunction, "out", out.size(), rows);
  for (std::size_t r = 0; r < rows; ++r) {
    out[r] = row(kFunction, logits, r, memories).entropy();
  }
}

template <class T>
double entropy(std::span<const T> logits, std::size_t rows, std::size_t memories) {
  constexpr const char* kFunction = "entropy";
  check_logits(kFunction, logits.size(), rows, memories);
  double sum = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    sum += row(kFunction, logits, r, memories).entropy();
  }
  return sum;
}

template <class T>
void entropy_backward(std::span<const T> logits, std::size_t rows, std::size_t memories,
                      double scale, std::span<T> dlogits) {
  constexpr const char* kFunction = "entropy_backward";
  check_logits(kFunction, logits.size(), rows, memories);
  check_count(kFunction, "dlogits", dlogits.size(), logits.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const Row<T> x = row(kFunction, logits, r, memories);
    const double h = x.entropy();
    for (std::size_t j = 0; j < memories; ++j) {
      dlogits[r * memories + j] += static_cast<T>(-scale * x.p(j) * (x.log_p(j) + h));
    }
  }
}

#define MEMPLACE_INSTANTIATE(T)                                                                   \
  template void log_softmax_rows<T>(std::span<const T>, std::size_t, std::size_t, std::span<T>);  \
  template void sample_rows<T>(std::span<const T>, std::size_t, std::size_t, Rng&,                \
                               std::span<std::uint8_t>);                                          \
  template void argmax_rows<T>(std::span<const T>, std::size_t, std::size_t,                      \
                               std::span<std::uint8_t>);                                          \
  template double log_prob<T>(std::span<const T>, std::size_t, std::size_t,                       \
                              std::span<const std::uint8_t>);                                     \
  template void log_prob_rows<T>(std::span<const T>, std::size_t, std::size_t,                    \
                                 std::span<const std::uint8_t>, std::span<double>);               \
  template void log_prob_backward<T>(std::span<const T>, std::size_t, std::size_t,                \
                                     std::span<const std::uint8_t>, double, std::span<T>);        \
  template double entropy<T>(std::span<const T>, std::size_t, std::size_t);                       \
  template void entropy_rows<T>(std::span<const T>, std::size_t, std::size_t, std::span<double>); \
  template void entropy_backward<T>(std::span<const T>, std::size_t, std::size_t, double,         \
                                    std::span<T>);

MEMPLACE_INSTANTIATE(float)
MEMPLACE_INSTANTIATE(double)
#undef MEMPLACE_INSTANTIATE

}  // namespace memplace::nn
