#include "env/allocation/exact_search.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "env/allocation/search_common.hpp"

namespace memplace::allocation {
namespace {

using detail::kNone;

class Search {
 public:
  Search(const Problem& problem, const SearchLimits& limits, RankOrder rank_order,
         const SearchProgressCallback& progress)
      : problem_(problem),
        set_(problem),
        buffers_(set_.buffers),
        n_(static_cast<int>(buffers_.size())),
        capacity_(problem.capacity),
        alignment_(problem.alignment),
        meter_(limits, progress, n_) {
    sections_ = time_sections(buffers_);
    neighbours_ = live_neighbours(buffers_);
    rank_ = detail::tie_break_ranks(buffers_, rank_order);
    twin_before_ = detail::twins_before(buffers_, rank_);
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<int>> lifetimes;
    for (int i = 0; i < n_; ++i)
      lifetimes[{buffers_[i].lower, buffers_[i].upper}].push_back(i);
    same_lifetime_.resize(n_);
    for (const auto& [lifetime, members] : lifetimes)
      for (const int i : members)
        for (const int j : members)
          if (i != j) same_lifetime_[i].push_back(j);
    min_offset_.assign(n_, 0);
    offset_.assign(n_, 0);
    placed_.assign(n_, 0);
    free_neighbours_.resize(n_);
    for (int i = 0; i < n_; ++i)
      free_neighbours_[i] = static_cast<int>(neighbours_[i].size());
    remaining_.assign(sections_.count(), 0);
    for (int i = 0; i < n_; ++i)
      for (int s = sections_.first[i]; s < sections_.last[i]; ++s)
        remaining_[s] += buffers_[i].size;
    prefix_room_.resize(sections_.count() + 1);
    suffix_room_.resize(sections_.count() + 1);
    lowest_.resize(sections_.count());
    frames_.resize(n_ + 1);
  }

  ExactSearchResult run() {
    const SearchOutcome outcome = search();
    return detail::search_result(outcome, meter_, set_, problem_, offset_);
  }

 private:
  struct Frame {
    std::vector<int> candidates;
    std::size_t next = 0;
    std::size_t mark = 0;  // the trail's size before the placement being tried
    int trying = -1;       // the buffer placed from this frame, -1 if none
  };

  // Whether k, at its lowest offset, would sit right on a placed buffer of the same lifetime and a
  // higher rank. Two such buffers stacked can swap places (together they fill the same rectangle),
  // so only the order with ranks rising upward is searched. (Not when alignment pads either: the
  // swapped stack could be taller.)
  bool lands_on_higher_rank(int k) const {
    if (buffers_[k].size % alignment_ != 0) return false;
    for (const int j : same_lifetime_[k])
      if (buffers_[j].size % alignment_ == 0 && placed_[j] && rank_[j] > rank_[k] &&
          offset_[j] + buffers_[j].size == min_offset_[k])
        return true;
    return false;
  }
  // A buffer's place in the order of placement: offset, then lower end, then rank.
  using Key = std::tuple<std::int64_t, int, int>;
  Key key(int i) const { return {min_offset_[i], sections_.first[i], rank_[i]}; }

  // Places buffer i at its lowest offset and updates the sections' bytes to place and the
  // neighbours' lowest offsets; false when a bound shows the result cannot be completed (the
  // caller undoes with trail_.undo() and unplace()).
  bool place(int i) {
    const Buffer& b = buffers_[i];
    offset_[i] = min_offset_[i];
    placed_[i] = 1;
    for (const int j : neighbours_[i])
      --free_neighbours_[j];
    const std::int64_t next_free = align_up(offset_[i] + b.size, alignment_);
    // What is still to place in i's sections goes above i.
    for (int s = sections_.first[i]; s < sections_.last[i]; ++s) {
      trail_.set(remaining_[s], remaining_[s] - b.size);
      if (remaining_[s] > 0 && next_free > capacity_ - remaining_[s]) return false;
    }
    for (const int j : neighbours_[i]) {
      if (placed_[j] || min_offset_[j] >= next_free) continue;
      trail_.set(min_offset_[j], next_free);
      if (next_free > capacity_ - buffers_[j].size) return false;
    }
    return true;
  }
  void unplace(int i) {
    placed_[i] = 0;
    for (const int j : neighbours_[i])
      ++free_neighbours_[j];
  }

  // The buffers that may be placed next, in the order to try them. Buffers are placed in the
  // order of (offset, lower end, rank), so every unplaced buffer ends at or above the last one
  // placed, the level. A candidate k sets the level to its own key, which must leave room for the
  // bytes still to place in every section outside k: above k's offset in the sections after k's
  // start, and above it by one alignment step in the sections before (a buffer that covers them
  // starts earlier than k, so it cannot sit at k's offset). An unplaced buffer below the level
  // must be lifted by a neighbour placed later, so it needs an unplaced one; a buffer without
  // one ends the candidates, as every later candidate would leave it below the level.
  void candidates(std::vector<int>& out, const Key& level) {
    out.clear();
    order_.clear();
    for (int i = 0; i < n_; ++i)
      if (!placed_[i]) order_.push_back(i);
    std::sort(order_.begin(), order_.end(), [&](int a, int b) { return key(a) < key(b); });
    // No section's bytes to place may start below the lowest offset any of its buffers can take.
    const int sections = sections_.count();
    std::fill(lowest_.begin(), lowest_.end(), kNone);
    for (const int k : order_)
      for (int s = sections_.first[k]; s < sections_.last[k]; ++s)
        lowest_[s] = std::min(lowest_[s], min_offset_[k]);
    for (int s = 0; s < sections; ++s)
      if (remaining_[s] > 0 && lowest_[s] > capacity_ - remaining_[s]) return;
    // The highest offset a candidate may take for the bytes in the sections before it (prefix)
    // and after it (suffix) to fit.
    prefix_room_[0] = kNone;
    for (int s = 0; s < sections; ++s)
      prefix_room_[s + 1] = std::min(
          prefix_room_[s], remaining_[s] > 0 ? capacity_ - remaining_[s] - alignment_ : kNone);
    suffix_room_[sections] = kNone;
    for (int s = sections - 1; s >= 0; --s)
      suffix_room_[s] =
          std::min(suffix_room_[s + 1], remaining_[s] > 0 ? capacity_ - remaining_[s] : kNone);
    for (const int k : order_) {
      if (key(k) < level) {
        // Below the level: it waits to be lifted, and nothing can lift it without a neighbour.
        if (free_neighbours_[k] == 0) {
          out.clear();
          return;
        }
        continue;
      }
      const std::int64_t room =
          std::min(prefix_room_[sections_.first[k]], suffix_room_[sections_.last[k]]);
      if (min_offset_[k] <= room && (twin_before_[k] < 0 || placed_[twin_before_[k]]) &&
          !lands_on_higher_rank(k))
        out.push_back(k);
      if (free_neighbours_[k] == 0) break;
    }
  }

  SearchOutcome search() {
    for (int i = 0; i < n_; ++i)
      if (buffers_[i].size > capacity_) return SearchOutcome::infeasible;
    for (const std::int64_t bytes : remaining_)
      if (bytes > capacity_) return SearchOutcome::infeasible;
    if (n_ == 0) return SearchOutcome::packed;
    int depth = 0;
    candidates(frames_[0].candidates, {-1, -1, -1});
    frames_[0].next = 0;
    frames_[0].trying = -1;
    int unplaced = n_;
    while (depth >= 0) {
      Frame& frame = frames_[depth];
      if (frame.trying >= 0) {
        trail_.undo(frame.mark);
        unplace(frame.trying);
        frame.trying = -1;
        ++unplaced;
      }
      if (frame.next == frame.candidates.size()) {
        --depth;
        continue;
      }
      const int k = frame.candidates[frame.next++];
      const Key level = key(k);
      frame.mark = trail_.size();
      frame.trying = k;
      --unplaced;
      if (!meter_.tick(depth + 1)) return SearchOutcome::limit;
      if (!place(k)) continue;
      if (unplaced == 0) return SearchOutcome::packed;
      Frame& child = frames_[++depth];
      candidates(child.candidates, level);
      child.next = 0;
      child.trying = -1;
    }
    return SearchOutcome::infeasible;
  }

  const Problem& problem_;
  detail::SearchBuffers set_;           // the buffers with bytes
  const std::vector<Buffer>& buffers_;  // set_'s
  int n_ = 0;
  std::int64_t capacity_;
  std::int64_t alignment_;
  detail::SearchMeter meter_;
  Sections sections_;
  std::vector<std::vector<int>> neighbours_;
  std::vector<int> rank_;
  std::vector<int> twin_before_;
  std::vector<std::vector<int>> same_lifetime_;  // the other buffers with the same lifetime
  // The search state: the trail restores the lowest offsets and the bytes to place on
  // backtracking, unplace() the rest.
  std::vector<std::int64_t> min_offset_;
  std::vector<std::int64_t> offset_;
  std::vector<char> placed_;
  std::vector<int> free_neighbours_;     // unplaced neighbours of each buffer
  std::vector<std::int64_t> remaining_;  // bytes still to place in each section
  detail::Trail trail_;
  std::vector<Frame> frames_;
  std::vector<int> order_;
  std::vector<std::int64_t> prefix_room_;
  std::vector<std::int64_t> suffix_room_;
  std::vector<std::int64_t> lowest_;  // per section, the lowest offset an unplaced buffer can take
};

}  // namespace

std::string name_of(RankOrder order) {
  switch (order) {
    case RankOrder::size:
      return "size";
    case RankOrder::lifetime:
      return "lifetime";
    case RankOrder::area:
      return "area";
    case RankOrder::short_lifetime:
      return "short lifetime";
    case RankOrder::early_end:
      return "early end";
    case RankOrder::late_end:
      return "late end";
  }
  return "?";
}

ExactSearchResult exact_search(const Problem& problem, const SearchLimits& limits,
                               RankOrder rank_order, const SearchProgressCallback& progress) {
  return Search(problem, limits, rank_order, progress).run();
}

}  // namespace memplace::allocation
