// How large a workload's or a chip's counts may be: code sums them in int64 (a workload's MACs, its
// bytes by memory and over time; a chip's capacities), so each kind's total must stay below 2^62,
// which leaves room to add two of them. Far beyond any model or chip (a trillion-parameter model
// has ~2^41 weight bytes): a count this large is a typo, or a fuzzer's.
#pragma once

#include <cstdint>

namespace memplace {

inline constexpr std::int64_t kMaxTotalCount = std::int64_t{1} << 62;

}  // namespace memplace
