#include "allocation/exact_search.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <span>
#include <stdexcept>
#include <tuple>

#include "allocation/search_common.hpp"

namespace memplace::allocation {
namespace {

using detail::kNone;

// The unplaced buffers, in no particular order, for the passes over them: a buffer placed is
// swapped to the end and cut off, and as buffers are unplaced in the reverse order of their
// placement, the one unplaced is always the one cut off last. (Deep in a search most buffers
// are placed, and the passes over all of them took a third of its time.)
class UnplacedBuffers {
 public:
  explicit UnplacedBuffers(int n) : items_(n), position_(n), count_(n) {
    std::iota(items_.begin(), items_.end(), 0);
    std::iota(position_.begin(), position_.end(), 0);
  }
  std::span<const int> items() const { return {items_.data(), count_}; }
  bool empty() const { return count_ == 0; }
  void remove(int i) {
    const std::size_t at = position_[i];
    const int last = items_[--count_];
    items_[at] = last;
    position_[last] = at;
    items_[count_] = i;
    position_[i] = count_;
  }
  void restore(int i) {
    if (count_ == items_.size() || items_[count_] != i)
      throw std::logic_error("exact search: buffers unplaced out of order");
    ++count_;
  }

 private:
  std::vector<int> items_;
  std::vector<std::size_t> position_;
  std::size_t count_;
};

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
    const std::vector<int> ranks = detail::tie_break_ranks(buffers_, rank_order);
    twin_before_ = detail::twins_before(buffers_, ranks);
    rank_.assign(ranks.begin(), ranks.end());
    rerank_ = rank_order == RankOrder::busiest_section;
    before_step_ = rerank_ ? 0 : alignment_;
    next_rank_ = n_;
    std::map<std::pair<std::int64_t, std::int64_t>, int> lifetimes;
    same_lifetime_.resize(n_);
    for (int i = 0; i < n_; ++i) {
      const auto [at, fresh] = lifetimes.try_emplace({buffers_[i].lower, buffers_[i].upper},
                                                     static_cast<int>(lifetime_groups_.size()));
      if (fresh) lifetime_groups_.emplace_back();
      lifetime_groups_[at->second].push_back(i);
      same_lifetime_[i] = at->second;
    }
    min_offset_.assign(n_, 0);
    offset_.assign(n_, 0);
    placed_.assign(n_, 0);
    unplaced_ = UnplacedBuffers(n_);
    free_neighbours_.resize(n_);
    for (int i = 0; i < n_; ++i)
      free_neighbours_[i] = static_cast<int>(neighbours_[i].size());
    remaining_.assign(sections_.count(), 0);
    crossing_.resize(sections_.count());
    for (int i = 0; i < n_; ++i)
      for (int s = sections_.first[i]; s < sections_.last[i]; ++s) {
        remaining_[s] += buffers_[i].size;
        crossing_[s].push_back(i);
      }
    holding_hint_.assign(sections_.count(), {});
    prefix_room_.resize(sections_.count() + 1);
    suffix_room_.resize(sections_.count() + 1);
    run_end_.resize(sections_.count());
    frames_.resize(n_ + 1);
  }

  ExactSearchResult run() {
    const SearchOutcome outcome = search();
    return detail::search_result(outcome, meter_, set_, problem_, offset_);
  }

 private:
  // A run of sections whose unplaced buffers are searched on their own: once no unplaced buffer
  // crosses from one run to the next, the runs' packings do not depend on each other.
  struct Scope {
    int first = 0;  // sections [first, last)
    int last = 0;
    int fail_to = -1;  // the depth whose placement split the run off: where its failure returns
  };
  struct Frame {
    std::vector<int> candidates;
    std::size_t next = 0;
    std::size_t mark = 0;        // the trail's size before the placement being tried
    int trying = -1;             // the buffer placed from this frame, -1 if none
    Scope scope;                 // where the candidates come from
    int fail_to = -1;            // the depth to return to once every candidate has failed
    std::vector<Scope> pending;  // the runs still to search after this one, the next at the back
  };

  // Whether k, at its lowest offset, would sit right on a placed buffer of the same lifetime and a
  // higher rank. Two such buffers stacked can swap places (together they fill the same rectangle),
  // so only the order with ranks rising upward is searched. (Not when alignment pads either: the
  // swapped stack could be taller.)
  bool lands_on_higher_rank(int k) const {
    if (buffers_[k].size % alignment_ != 0) return false;
    for (const int j : lifetime_groups_[same_lifetime_[k]])
      if (buffers_[j].size % alignment_ == 0 && placed_[j] && rank_[j] > rank_[k] &&
          offset_[j] + buffers_[j].size == min_offset_[k])
        return true;
    return false;
  }
  // A buffer's place in the order of placement: offset, then lower end, then rank; under the
  // busiest-section order (which ranks again in every run) offset, then rank, as MiniMalloc's
  // canonical order: with the lower end between them it packs none of E, I and K of the
  // published problems within 20 s (docs/allocation.md).
  using Key = std::tuple<std::int64_t, int, std::int64_t>;
  Key key(int i) const { return {min_offset_[i], rerank_ ? 0 : sections_.first[i], rank_[i]}; }

  // Places buffer i at its lowest offset and updates the sections' bytes to place and the
  // neighbours' lowest offsets; false when a bound shows the result cannot be completed (the
  // caller undoes with trail_.undo() and unplace()).
  bool place(int i) {
    const Buffer& b = buffers_[i];
    offset_[i] = min_offset_[i];
    placed_[i] = 1;
    unplaced_.remove(i);
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
    unplaced_.restore(i);
    for (const int j : neighbours_[i])
      ++free_neighbours_[j];
  }

  bool in_scope(int i, const Scope& scope) const {
    return sections_.first[i] >= scope.first && sections_.last[i] <= scope.last;
  }
  // Whether some unplaced buffer of the scope in section s can start low enough for the section's
  // bytes to place to fit above it. Any one will do, so the look starts at the one found last time
  // (a minimum over every buffer's sections took two thirds of the search's time).
  bool section_holds(int s, const Scope& scope) {
    const std::int64_t highest_fitting = capacity_ - remaining_[s];
    return detail::holds_from_hint(crossing_[s], holding_hint_[s], [&](int i) {
      return min_offset_[i] <= highest_fitting && !placed_[i] && in_scope(i, scope);
    });
  }

  // The buffers that may be placed next, in the order to try them. Buffers are placed in the
  // order of (offset, lower end, rank), so every unplaced buffer ends at or above the last one
  // placed, the level. A candidate k sets the level to its own key, which must leave room for the
  // bytes still to place in every section outside k: above k's offset in the sections after k's
  // start, and above it by one alignment step in the sections before (a buffer that covers them
  // starts earlier than k, so it cannot sit at k's offset). An unplaced buffer below the level
  // must be lifted by a neighbour placed later, so it needs an unplaced one; a buffer without
  // one ends the candidates, as every later candidate would leave it below the level.
  void candidates(std::vector<int>& out, const Key& level, const Scope& scope) {
    out.clear();
    order_.clear();
    for (const int i : unplaced_.items())
      if (in_scope(i, scope)) order_.push_back(i);
    // No section's bytes to place may start below the lowest offset any of its buffers can take.
    for (int s = scope.first; s < scope.last; ++s)
      if (remaining_[s] > 0 && !section_holds(s, scope)) return;
    // The highest offset a candidate may take for the bytes in the sections before it (prefix)
    // and after it (suffix) to fit.
    prefix_room_[scope.first] = kNone;
    for (int s = scope.first; s < scope.last; ++s)
      prefix_room_[s + 1] = std::min(
          prefix_room_[s], remaining_[s] > 0 ? capacity_ - remaining_[s] - before_step_ : kNone);
    suffix_room_[scope.last] = kNone;
    for (int s = scope.last - 1; s >= scope.first; --s)
      suffix_room_[s] =
          std::min(suffix_room_[s + 1], remaining_[s] > 0 ? capacity_ - remaining_[s] : kNone);
    // Dominance: once some unplaced buffer j fits wholly below a candidate's offset (at its own
    // lowest offset, under nothing placed and below everything placed later), a packing with the
    // candidate there would also hold with j moved down into that hole, so it is found on another
    // branch; the candidates from that offset on are left out.
    std::int64_t lowest_top = kNone;
    for (const int j : order_)
      lowest_top = std::min(lowest_top, min_offset_[j] + buffers_[j].size);
    // In the order of keys, the candidates run from the level up to the first buffer without an
    // unplaced neighbour (included) and below lowest_top; every buffer below the level needs one.
    // Found in one pass, and only the candidates sorted (the search's time goes here).
    Key stop{kNone, 0, 0};
    for (const int k : order_) {
      if (free_neighbours_[k] != 0) continue;
      if (key(k) < level) return;  // below the level with nothing to lift it
      stop = std::min(stop, key(k));
    }
    for (const int k : order_) {
      if (key(k) < level || key(k) > stop || min_offset_[k] >= lowest_top) continue;
      const std::int64_t room =
          std::min(prefix_room_[sections_.first[k]], suffix_room_[sections_.last[k]]);
      if (min_offset_[k] <= room && (twin_before_[k] < 0 || placed_[twin_before_[k]]) &&
          !lands_on_higher_rank(k))
        out.push_back(k);
    }
    std::sort(out.begin(), out.end(), [&](int a, int b) { return key(a) < key(b); });
  }

  // The runs of sections that the unplaced buffers of `scope` cover, each linked by buffers live
  // across it, in time order.
  void split(const Scope& scope, std::vector<Scope>& runs) {
    runs.clear();
    int reach = scope.first;  // the end of the run being grown
    for (int s = scope.first; s < scope.last; ++s)
      run_end_[s] = s;
    for (const int i : unplaced_.items())
      if (in_scope(i, scope))
        run_end_[sections_.first[i]] = std::max(run_end_[sections_.first[i]], sections_.last[i]);
    for (int s = scope.first; s < scope.last; ++s) {
      if (run_end_[s] == s) continue;  // no unplaced buffer starts here
      if (runs.empty() || s >= reach) runs.push_back({s, s, -1});
      reach = std::max(reach, run_end_[s]);
      runs.back().last = reach;
    }
  }

  // A fresh run ranks its buffers again by the bytes still to place in their busiest section
  // (then lifetime, then area), as MiniMalloc's subproblems do; the new ranks lie above every
  // earlier one, so no symmetry rule compares them with a placed buffer's.
  void rerank(const Scope& scope) {
    order_.clear();
    for (const int i : unplaced_.items())
      if (in_scope(i, scope)) order_.push_back(i);
    busiest_.assign(n_, 0);
    for (const int i : order_)
      for (int s = sections_.first[i]; s < sections_.last[i]; ++s)
        busiest_[i] = std::max(busiest_[i], remaining_[s]);
    std::sort(order_.begin(), order_.end(), [&](int a, int b) {
      const auto life = [&](int i) { return buffers_[i].upper - buffers_[i].lower; };
      return std::make_tuple(-busiest_[a], -life(a), -life(a) * buffers_[a].size, a) <
             std::make_tuple(-busiest_[b], -life(b), -life(b) * buffers_[b].size, b);
    });
    for (std::size_t r = 0; r < order_.size(); ++r)
      trail_.set(rank_[order_[r]], next_rank_ + static_cast<std::int64_t>(r));
    trail_.set(next_rank_, next_rank_ + n_);
  }

  // Sets up the frame at `depth` after the placement from the frame below it (or the root, with
  // `parent` null): the scope it searches, the runs left for later, its candidates. At the root,
  // depth - 1 is -1: a failure there, or in a run split off there, ends the search.
  void enter(int depth, const Frame* parent, Key level) {
    Frame& frame = frames_[depth];
    frame.next = 0;
    frame.trying = -1;
    if (parent != nullptr)
      frame.pending = parent->pending;
    else
      frame.pending.clear();
    split(parent != nullptr ? parent->scope : Scope{0, sections_.count(), -1}, runs_);
    if (runs_.empty()) {
      // The run is packed: the next one starts afresh, and its failure is its splitter's.
      frame.scope = frame.pending.back();
      frame.fail_to = frame.scope.fail_to;
      frame.pending.pop_back();
      level = {-1, -1, -1};
    } else {
      frame.scope = runs_.front();
      frame.fail_to = depth - 1;
      for (std::size_t r = runs_.size(); r-- > 1;)
        frame.pending.push_back({runs_[r].first, runs_[r].last, depth - 1});
      if (runs_.size() > 1) level = {-1, -1, -1};
    }
    // (At the root the static ranks are this ranking already.)
    if (rerank_ && parent != nullptr && std::get<0>(level) < 0) rerank(frame.scope);
    candidates(frame.candidates, level, frame.scope);
  }

  SearchOutcome search() {
    for (int i = 0; i < n_; ++i)
      if (buffers_[i].size > capacity_) return SearchOutcome::infeasible;
    for (const std::int64_t bytes : remaining_)
      if (bytes > capacity_) return SearchOutcome::infeasible;
    if (n_ == 0) return SearchOutcome::packed;
    int depth = 0;
    enter(0, nullptr, {-1, -1, -1});
    while (depth >= 0) {
      Frame& frame = frames_[depth];
      if (frame.trying >= 0) {
        trail_.undo(frame.mark);
        unplace(frame.trying);
        frame.trying = -1;
      }
      if (frame.next == frame.candidates.size()) {
        // Every candidate failed. At a run's first frame the run cannot be packed, whatever the
        // runs packed before it: back to the placement that split it off, past theirs.
        const int back = frame.fail_to;
        for (int d = depth - 1; d > back; --d) {
          unplace(frames_[d].trying);
          frames_[d].trying = -1;
        }
        depth = back;
        continue;
      }
      const int k = frame.candidates[frame.next++];
      frame.mark = trail_.size();
      frame.trying = k;
      if (!meter_.tick(depth + 1)) return SearchOutcome::limit;
      if (!place(k)) continue;
      if (unplaced_.empty()) return SearchOutcome::packed;
      ++depth;
      enter(depth, &frames_[depth - 1], key(k));
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
  std::vector<std::int64_t> rank_;
  bool rerank_ = false;  // rank again in every run, and leave the lower end out of the key
  // How far above a candidate's offset the bytes of the sections before its start must go: one
  // alignment step when the key orders by lower end (a buffer covering them starts earlier, so it
  // cannot take the candidate's offset), none otherwise.
  std::int64_t before_step_ = 0;
  std::int64_t next_rank_ = 0;  // above every rank given so far
  std::vector<std::int64_t> busiest_;
  std::vector<int> twin_before_;
  // The buffers grouped by lifetime, and each buffer's group (a list per buffer of the others
  // would grow with the square of a group: the weights of a model often share one lifetime).
  std::vector<std::vector<int>> lifetime_groups_;
  std::vector<int> same_lifetime_;
  // The search state: the trail restores the lowest offsets and the bytes to place on
  // backtracking, unplace() the rest.
  std::vector<std::int64_t> min_offset_;
  std::vector<std::int64_t> offset_;
  std::vector<char> placed_;
  UnplacedBuffers unplaced_{0};
  std::vector<int> free_neighbours_;     // unplaced neighbours of each buffer
  std::vector<std::int64_t> remaining_;  // bytes still to place in each section
  detail::Trail trail_;
  std::vector<Frame> frames_;
  std::vector<int> order_;
  std::vector<std::int64_t> prefix_room_;
  std::vector<std::int64_t> suffix_room_;
  std::vector<std::vector<int>> crossing_;     // per section, the buffers live in it
  std::vector<detail::Witness> holding_hint_;  // per section, where section_holds' last witness is
  std::vector<int> run_end_;  // split()'s: per section, the furthest end of a buffer from it
  std::vector<Scope> runs_;
};

}  // namespace

ExactSearchResult exact_search(const Problem& problem, const SearchLimits& limits,
                               RankOrder rank_order, const SearchProgressCallback& progress) {
  return Search(problem, limits, rank_order, progress).run();
}

}  // namespace memplace::allocation
