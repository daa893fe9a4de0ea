// The allocation problem (docs/allocation.md): buffers with fixed lifetimes and sizes, to be given
// offsets in one memory of a fixed capacity so that no two buffers live at the same time share a
// byte. A packing is the offsets, one per buffer, in the problem's order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace memplace::allocation {

// One buffer: live in the steps [lower, upper) (half-open, as in the published allocation
// benchmarks), occupying [offset, offset + size) once placed.
struct Buffer {
  std::string id;
  std::int64_t lower = 0;
  std::int64_t upper = 0;
  std::int64_t size = 0;

  friend bool operator==(const Buffer&, const Buffer&) = default;
};

struct Problem {
  std::vector<Buffer> buffers;
  std::int64_t capacity = 0;   // the memory's bytes: every offset + size must fit below it
  std::int64_t alignment = 1;  // every offset a multiple of it
};

// Whether two buffers are live at a common step.
inline bool live_together(const Buffer& a, const Buffer& b) {
  return a.lower < b.upper && b.lower < a.upper;
}

// The pairs of buffers live together, counted in O(n log n) without listing them.
std::uint64_t live_pairs(std::span<const Buffer> buffers);

// The most pairs live_neighbours lists: 8 bytes each, 800 MB. `pack --generate 100000` makes a
// problem with 560 million, whose lists took 5 GB and 110 s before the solver's time limit was
// looked at; the searches need the lists, so such a problem is refused up front.
inline constexpr std::uint64_t kMaxLivePairs = 100'000'000;

// For each buffer, the positions of the others live with it, ascending: a sweep over the lower
// ends, so O(n log n + pairs) rather than a test of every pair. InputError beyond kMaxLivePairs.
std::vector<std::vector<int>> live_neighbours(std::span<const Buffer> buffers);

// The most bytes live at one step: no packing fits a capacity below it.
std::int64_t peak_live_bytes(std::span<const Buffer> buffers);

// `value` (>= 0) rounded down / up to a multiple of `alignment` (> 0). Powers of two, the usual
// alignments, take a mask: a 64-bit division would be most of a gap walk's time.
inline std::int64_t align_down(std::int64_t value, std::int64_t alignment) {
  if ((alignment & (alignment - 1)) == 0) return value & -alignment;
  return value / alignment * alignment;
}
inline std::int64_t align_up(std::int64_t value, std::int64_t alignment) {
  return align_down(value + alignment - 1, alignment);
}

// The problem with time reversed (a buffer live in [lower, upper) lives in [end - upper, end -
// lower), end the last step): the same packings, which the skyline search finds in another order,
// as it fills the earliest valley first.
Problem time_reversed(const Problem& problem);

// The time axis cut at every buffer's lower and upper end: section s is the steps
// [cuts[s], cuts[s + 1]), and buffer i covers sections [first[i], last[i]).
struct Sections {
  std::vector<std::int64_t> cuts;
  std::vector<int> first;
  std::vector<int> last;
  int count() const { return cuts.empty() ? 0 : static_cast<int>(cuts.size()) - 1; }
};
Sections time_sections(std::span<const Buffer> buffers);

// The largest value a lower, upper, size, capacity or alignment may take: sums over a million
// buffers stay far from overflow.
inline constexpr std::int64_t kMaxValue = 1'000'000'000'000'000;  // 10^15

// Checks the problem's own invariants (lower >= 0, upper > lower, size >= 0, capacity >= 0,
// alignment >= 1, values <= kMaxValue, distinct ids); throws InputError naming the buffer.
void check_problem(const Problem& problem);

}  // namespace memplace::allocation
