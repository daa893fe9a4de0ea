// A segment tree over schedule steps: add a value to a range of steps, ask for the maximum.
//
// The incremental evaluator keeps one per memory, holding the live activation bytes at each step.
// Iterative, with lazy tags that are only pushed down on range queries (the classic bottom-up
// "increment on a range, maximum on a range" tree): range add and range max are O(log N), the
// global maximum is O(1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace memplace {

class RangeMaxTree {
 public:
  RangeMaxTree() = default;
  explicit RangeMaxTree(std::size_t steps) {
    while (leaves_ < steps)
      leaves_ *= 2, ++height_;
    value_.assign(2 * leaves_, 0);
    tag_.assign(leaves_, 0);
  }

  // Adds `delta` at every step of [first, last].
  void add(std::size_t first, std::size_t last, std::int64_t delta) {
    std::size_t l = first + leaves_;
    std::size_t r = last + 1 + leaves_;
    const std::size_t l0 = l;
    const std::size_t r0 = r - 1;
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) apply(l++, delta);
      if (r & 1) apply(--r, delta);
    }
    rebuild_above(l0);
    rebuild_above(r0);
  }

  std::int64_t max() const { return value_[1]; }

  // Maximum over the steps [first, last]. Not const: it pushes pending tags down the two paths
  // (the represented values do not change).
  std::int64_t max(std::size_t first, std::size_t last) {
    std::size_t l = first + leaves_;
    std::size_t r = last + 1 + leaves_;
    push_above(l);
    push_above(r - 1);
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = std::max(best, value_[l++]);
      if (r & 1) best = std::max(best, value_[--r]);
    }
    return best;
  }

  // A step where the maximum is reached (the first one).
  std::size_t argmax() const {
    std::size_t p = 1;
    while (p < leaves_)
      p = value_[2 * p] >= value_[2 * p + 1] ? 2 * p : 2 * p + 1;
    return p - leaves_;
  }

  void clear() {
    std::fill(value_.begin(), value_.end(), 0);
    std::fill(tag_.begin(), tag_.end(), 0);
  }

 private:
  void apply(std::size_t p, std::int64_t delta) {
    value_[p] += delta;
    if (p < leaves_) tag_[p] += delta;
  }
  void rebuild_above(std::size_t p) {
    while (p > 1) {
      p >>= 1;
      value_[p] = std::max(value_[2 * p], value_[2 * p + 1]) + tag_[p];
    }
  }
  void push_above(std::size_t p) {
    for (std::size_t s = height_; s > 0; --s) {
      const std::size_t i = p >> s;
      if (tag_[i] != 0) {
        apply(2 * i, tag_[i]);
        apply(2 * i + 1, tag_[i]);
        tag_[i] = 0;
      }
    }
  }

  std::size_t leaves_ = 1;
  std::size_t height_ = 0;
  std::vector<std::int64_t> value_ = std::vector<std::int64_t>(2, 0);  // 1-based heap layout
  std::vector<std::int64_t> tag_ = std::vector<std::int64_t>(1, 0);  // pending adds of inner nodes
};

}  // namespace memplace
