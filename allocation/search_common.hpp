// What the two exact allocation searches share (exact_search.cpp, skyline_search.cpp): the
// buffers that take part, their ranks and identical twins, and the limits and progress reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "allocation/problem.hpp"
#include "allocation/search_interface.hpp"

namespace memplace::allocation::detail {

// "No offset": above every offset a search compares with.
inline constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

// Where a check found its last witness in a list: the position, and the item (asked first, read
// without going through the list).
struct Witness {
  std::uint32_t index = 0;  // (narrow: a search keeps one per section, and reads them all)
  int item = -1;            // items[index], or -1 before any was found
};

// Whether `holds` is true of some item, asked of the last witness first and then looked for from
// its position on, wrapping around; `hint` moves to the one found. For checks where any witness
// will do (does some unplaced buffer of a section sit low enough): as the hint only says where to
// start, it is not undone on backtracking.
template <class Holds>
bool holds_from_hint(std::span<const int> items, Witness& hint, Holds holds) {
  if (hint.item >= 0 && holds(hint.item)) return true;
  for (std::size_t k = hint.index, looked = 0; looked < items.size(); ++looked) {
    if (holds(items[k])) {
      hint = {static_cast<std::uint32_t>(k), items[k]};
      return true;
    }
    if (++k == items.size()) k = 0;
  }
  return false;
}

// The buffers with bytes (buffers of no bytes take offset 0 and no part in a search), and their
// positions in the problem.
struct SearchBuffers {
  std::vector<Buffer> buffers;
  std::vector<std::size_t> original;
  explicit SearchBuffers(const Problem& problem);
  // A search's offsets (one per buffer with bytes) as the problem's.
  std::vector<std::int64_t> problem_offsets(const Problem& problem,
                                            const std::vector<std::int64_t>& offsets) const;
};

// Each buffer's rank under `order`: smaller ranks go first where the search could take either.
std::vector<int> tie_break_ranks(const std::vector<Buffer>& buffers, RankOrder order);

// For each buffer, the identical one (same lifetime and size) of the next lower rank, or -1:
// swapping identical buffers changes nothing, so they are placed in rank order only.
std::vector<int> twins_before(const std::vector<Buffer>& buffers, const std::vector<int>& rank);

// The values a search changes on its way down, restored on backtracking. A portfolio makes
// thousands of searches (a guided sweep's windows, every guess), each growing its trail to a few
// megabytes: the storage of ended trails is kept for the next ones on the thread (at most a few),
// as growing a fresh one touched new pages that the allocator had given back to the system (page
// faults were a tenth of a portfolio's time).
class Trail {
 public:
  Trail();
  ~Trail();
  Trail(Trail&&) noexcept = default;
  Trail& operator=(Trail&&) noexcept = default;

  void set(std::int64_t& where, std::int64_t value) {
    entries_.emplace_back(&where, where);
    where = value;
  }
  // Restores every value set since the trail had `mark` entries.
  void undo(std::size_t mark) {
    while (entries_.size() > mark) {
      *entries_.back().first = entries_.back().second;
      entries_.pop_back();
    }
  }
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<std::pair<std::int64_t*, std::int64_t>> entries_;
};

// Counts placements against the limits and reports progress about once a second.
class SearchMeter {
 public:
  SearchMeter(const SearchLimits& limits, const SearchProgressCallback& progress, int buffers);
  // Counts one placement at `depth` buffers placed; false when a limit stops the search.
  bool tick(int depth);
  std::uint64_t nodes() const { return nodes_; }
  int deepest() const { return deepest_; }
  double seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  const SearchProgressCallback& progress_;
  Clock::time_point start_;
  Clock::time_point deadline_;
  Clock::time_point next_report_;
  std::uint64_t max_placements_;
  std::uint64_t nodes_ = 0;
  int deepest_ = 0;
  int buffers_;
};

// What a search that ended with `outcome` reports: its counts, and when packed its offsets (one
// per buffer with bytes) in the problem's order.
ExactSearchResult search_result(SearchOutcome outcome, const SearchMeter& meter,
                                const SearchBuffers& set, const Problem& problem,
                                const std::vector<std::int64_t>& offsets);

}  // namespace memplace::allocation::detail
