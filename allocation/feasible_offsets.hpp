// The offsets a buffer can take in any packing, from subset sums (a root-level inference the
// skyline search uses to rule out floors no buffer can rest at).
//
// In every time section of a buffer's life, the buffers wholly below it are a subset of the
// section's other buffers, and the bytes left empty under it are at most the section's spare bytes
// (capacity minus the bytes live there). So its offset o satisfies o - spare <= sum(subset) <= o
// in each of its sections. On problems with little slack, where sizes are varied, these sets are
// small (on generated zero-slack problems of 450 buffers, a few dozen offsets per buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

// A set of offsets as sorted, disjoint, closed intervals. Immutable, so copies share the
// intervals: a guided sweep's windows (guided_holes.hpp) take thousands of sets from
// OffsetSetMemo, some of 10,000 intervals, and copying them was a tenth of a sweep's time.
class OffsetSet {
 public:
  using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

  OffsetSet() = default;
  explicit OffsetSet(Intervals intervals)
      : intervals_(std::make_shared<const Intervals>(std::move(intervals))) {}
  explicit OffsetSet(std::shared_ptr<const Intervals> intervals)
      : intervals_(std::move(intervals)) {}
  // The smallest offset of the set that is >= `at` and a multiple of `alignment`; -1 if none.
  std::int64_t at_or_above(std::int64_t at, std::int64_t alignment) const;
  bool empty() const { return intervals().empty(); }
  const Intervals& intervals() const;
  // The intervals as shared with every copy (null for a default-constructed set).
  const std::shared_ptr<const Intervals>& shared() const { return intervals_; }

 private:
  std::shared_ptr<const Intervals> intervals_;
};

// OffsetSet::at_or_above() on a view of a set's intervals, looked for from interval `hint`
// outwards, and `hint` set to where it was found: a search asks about one buffer's set again and
// again at nearby offsets (a buffer raised and lowered as floors rise and fall back), and a binary
// search from the start, through the set's shared storage, was a tenth of its time. Any hint gives
// the same answer.
std::int64_t at_or_above(std::span<const OffsetSet::Intervals::value_type> intervals,
                         std::int64_t at, std::int64_t alignment, std::uint32_t& hint);

// Sections whose other buffers number more than this are skipped (2^k sums each): the sets are
// then supersets of what the sections allow, never wrong.
inline constexpr int kMaxSubsetBuffers = 16;

// Per buffer of the problem (same order), a set that holds every offset the buffer takes in any
// packing; an empty set proves that no packing exists. Buffers of no bytes get [0, capacity].
std::vector<OffsetSet> feasible_offsets(const Problem& problem);

// A subset of a section's buffers: its sum and which buffers it holds (bit k: the section's k-th
// buffer, in order of size).
struct SubsetSum {
  std::int64_t sum;
  std::uint32_t members;
};

// feasible_offsets() that remembers each buffer's set by what it depends on — the buffer's size
// and, for each of its sections, the section's spare bytes and the sizes of its buffers — so that
// problems sharing most of their sections (the guesses of one problem's holes, a guided sweep's
// windows, which overlap in all but a section) enumerate only the sections where they differ. The
// same sets as feasible_offsets(problem), for any problem; what it remembers is dropped when it
// passes a bound (`max_stored_words`, 8-byte words). It also keeps the subset sums of the sections
// it enumerated last, up to `max_stored_sums` of them: a buffer not remembered is narrowed by all
// its sections again, and the same few dozen big sections come back by the thousand — on held-out
// seed 4019 of 450 buffers, 2,042 sections enumerated for 72 different ones in the first 6
// million placements (docs/allocation.md, "Offsets from subset sums").
class OffsetSetMemo {
 public:
  static constexpr std::size_t kMaxStoredWords = 8'000'000;  // 64 MB
  static constexpr std::size_t kMaxStoredSums = 2'000'000;   // 32 MB

  explicit OffsetSetMemo(std::size_t max_stored_words = kMaxStoredWords,
                         std::size_t max_stored_sums = kMaxStoredSums)
      : max_stored_words_(max_stored_words), max_stored_sums_(max_stored_sums) {}
  std::vector<OffsetSet> operator()(const Problem& problem);

 private:
  // A section's subset sums, sorted, and when they were last asked for.
  struct StoredSums {
    std::vector<SubsetSum> sums;
    std::uint64_t used = 0;
  };
  // The subset sums of the section of id `id` and buffers `in` (by size), remembered or made,
  // the least recently used dropped to make room; valid until the next call.
  std::span<const SubsetSum> sums_of(std::int64_t id, const std::vector<Buffer>& buffers,
                                     const std::vector<int>& in);

  static constexpr std::size_t kWordsPerEntry = 12;  // a map node's own, about
  std::size_t max_stored_words_;
  std::map<std::vector<std::int64_t>, std::int64_t> sections_;  // a section's id, by its contents
  std::map<std::vector<std::int64_t>, std::shared_ptr<const OffsetSet::Intervals>> sets_;
  std::size_t stored_ = 0;  // words held in both maps
  std::size_t max_stored_sums_;
  std::map<std::int64_t, StoredSums> sums_;  // by section id
  std::size_t stored_sums_ = 0;              // sums of room held in sums_
  std::uint64_t clock_ = 0;                  // sums_of's calls
};

}  // namespace memplace::allocation
