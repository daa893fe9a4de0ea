#include "env/allocation/skyline_search.hpp"

#include <algorithm>
#include <limits>

#include "base/rng.hpp"
#include "env/allocation/feasible_offsets.hpp"
#include "env/allocation/search_common.hpp"

namespace memplace::allocation {
namespace {

using detail::kNone;

class Skyline {
 public:
  Skyline(const Problem& problem, const SearchLimits& limits, RankOrder rank_order,
          const SearchProgressCallback& progress, std::uint64_t shuffle,
          std::span<const OffsetSet> feasible)
      : problem_(problem),
        set_(problem),
        buffers_(set_.buffers),
        n_(static_cast<int>(buffers_.size())),
        capacity_(problem.capacity),
        alignment_(problem.alignment),
        sections_(time_sections(buffers_)),
        rank_(shuffled(detail::tie_break_ranks(buffers_, rank_order), shuffle)),
        twin_before_(detail::twins_before(buffers_, rank_)),
        meter_(limits, progress, n_) {
    const int sections = sections_.count();
    crossing_.resize(sections);
    starting_.resize(sections);
    remaining_.assign(sections, 0);
    floor_.assign(sections, 0);
    touched_.assign(sections, -1);
    lowest_.assign(n_, 0);
    std::vector<int> by_rank(n_);
    for (int i = 0; i < n_; ++i)
      by_rank[rank_[i]] = i;
    for (const int i : by_rank) {
      starting_[sections_.first[i]].push_back(i);
      for (int s = sections_.first[i]; s < sections_.last[i]; ++s) {
        crossing_[s].push_back(i);
        remaining_[s] += buffers_[i].size;
      }
    }
    reach_.assign(sections + 1, 0);
    placed_.assign(n_, 0);
    offset_.assign(n_, 0);
    if (!feasible.empty())
      for (int i = 0; i < n_; ++i)
        feasible_.push_back(&feasible[set_.original[i]]);
    for (int i = 0; i < n_; ++i)
      lowest_[i] = resting_offset(i, 0);
  }

  static std::vector<int> shuffled(std::vector<int> rank, std::uint64_t seed) {
    if (seed == 0 || rank.size() < 2) return rank;
    Rng rng(seed);
    const std::uint64_t window = rank.size() / 8 + 1;
    std::vector<std::pair<std::uint64_t, int>> keys(rank.size());
    for (std::size_t i = 0; i < rank.size(); ++i)
      keys[i] = {static_cast<std::uint64_t>(rank[i]) + rng.uniform(window), static_cast<int>(i)};
    std::sort(keys.begin(), keys.end());
    for (std::size_t r = 0; r < keys.size(); ++r)
      rank[keys[r].second] = static_cast<int>(r);
    return rank;
  }

  ExactSearchResult run() {
    const SearchOutcome outcome = search();
    return detail::search_result(outcome, meter_, set_, problem_, offset_);
  }

 private:
  // A decision: which buffer sits at the lowest floor (section `section`, offset `floor`), or
  // none (the floor rises).
  struct Frame {
    int section = -1;
    std::int64_t floor = 0;
    std::vector<int> candidates;
    std::size_t next = 0;
    bool rose = false;     // the rising branch has been taken
    int trying = -1;       // the buffer placed from this frame, -1 if none
    std::size_t mark = 0;  // the trail's size before the branch being tried
  };

  bool active(int s) const { return s >= 0 && s < sections_.count() && remaining_[s] > 0; }

  // The run of active sections around active section s: [first, last).
  std::pair<int, int> component(int s) const {
    int a = s, b = s + 1;
    while (active(a - 1))
      --a;
    while (active(b))
      ++b;
    return {a, b};
  }

  // A buffer's lowest offset: the highest floor of its sections, raised to the next offset it
  // can take in any packing (kept in lowest_).
  std::int64_t lowest_offset(int i) const { return lowest_[i]; }

  // The lowest offset >= `at` that buffer i can take in any packing (feasible_offsets.hpp); kNone
  // when there is none.
  std::int64_t resting_offset(int i, std::int64_t at) const {
    if (feasible_.empty()) return at;
    const std::int64_t offset = feasible_[i]->at_or_above(at, alignment_);
    return offset < 0 ? kNone : offset;
  }

  // Section s's floor rose to `to`: its unplaced buffers' lowest offsets follow, and every
  // section those buffers cover is checked — its bytes to place must fit above the lowest offset
  // any of its unplaced buffers can take (on a full memory: some buffer must still be able to sit
  // right at its floor). False when one cannot.
  bool raise_floor(int s, std::int64_t to) {
    trail_.set(floor_[s], to);
    bool ok = true;
    for (const int i : crossing_[s])
      if (!placed_[i] && lowest_[i] < to) {
        trail_.set(lowest_[i], resting_offset(i, to));
        for (int t = sections_.first[i]; ok && t < sections_.last[i]; ++t)
          ok = section_holds(t);
      }
    return ok;
  }
  bool section_holds(int t) const {
    if (remaining_[t] == 0) return true;
    std::int64_t lowest = kNone;
    for (const int i : crossing_[t])
      if (!placed_[i]) lowest = std::min(lowest, lowest_[i]);
    return remaining_[t] <= capacity_ - lowest;
  }

  // Where to decide next: in the earliest component (a run of sections with bytes to place, which
  // shares no buffer with any other), among the sections at the lowest floor, the one with the
  // fewest branches (the earliest of ties); -1 when every buffer is placed. Any section at the
  // lowest floor is a complete choice (its lowest buffer sits at the floor or above it), so the
  // search takes the one that fails or forces first. Working on one component until it is done is
  // what lets a failure jump back past the decisions made in others (search()).
  int next_section() const {
    int s = 0;
    while (s < sections_.count() && !active(s))
      ++s;
    if (s == sections_.count()) return -1;
    std::int64_t lowest = kNone;
    for (int t = s; active(t); ++t)
      lowest = std::min(lowest, floor_[t]);
    int best = -1;
    int fewest = std::numeric_limits<int>::max();
    for (int t = s; active(t) && fewest > 0; ++t)
      if (floor_[t] == lowest) {
        const int branches = branch_count(t, lowest, fewest);
        if (branches < fewest) best = t, fewest = branches;
      }
    return best;
  }

  // Whether buffer i, crossing a section at `floor` (the lowest floor), can sit right at it.
  bool sits_at(int i, std::int64_t floor) const {
    return !placed_[i] && (twin_before_[i] < 0 || placed_[twin_before_[i]]) &&
           lowest_offset(i) == floor && !lands_on_higher_rank(i, floor);
  }

  // The branches of a decision at section s (its candidates, plus the rising branch where the
  // section has a spare byte), counted up to `limit`.
  int branch_count(int s, std::int64_t floor, int limit) const {
    int count = remaining_[s] < capacity_ - floor ? 1 : 0;
    for (const int i : crossing_[s])
      if (count < limit && sits_at(i, floor)) ++count;
    return count;
  }

  // Whether the valley around section s can still be filled: a valley is a run of active sections
  // at one floor h between sections that are higher, inactive, or the schedule's ends. The space
  // right above h in each of its sections is either taken by a buffer at h — one inside the
  // valley, as its neighbours' floors never come down to h — or left empty, which needs one
  // alignment step of spare bytes in that section. Buffers at h do not overlap in time, so the
  // valley's unplaced buffers and empty sections must tile it from end to end (a reachability
  // pass over its sections). True when s is in no valley.
  bool valley_fillable(int s) {
    if (!active(s)) return true;
    const std::int64_t h = floor_[s];
    int a = s, b = s + 1;  // the run [a, b)
    while (active(a - 1) && floor_[a - 1] == h)
      --a;
    while (active(b) && floor_[b] == h)
      ++b;
    if ((active(a - 1) && floor_[a - 1] < h) || (active(b) && floor_[b] < h)) return true;
    std::fill(reach_.begin() + a, reach_.begin() + b + 1, 0);
    reach_[a] = 1;
    for (int p = a; p < b; ++p) {
      if (!reach_[p]) continue;
      if (remaining_[p] <= capacity_ - h - alignment_) reach_[p + 1] = 1;
      for (const int i : starting_[p])
        if (!placed_[i] && sections_.last[i] <= b && lowest_[i] == h) reach_[sections_.last[i]] = 1;
    }
    if (!reach_[b]) return false;
    // Up to the lower wall, the valley is a pit: a buffer that reaches over a wall sits above it,
    // so in each section the pit's height is filled by buffers inside the valley, but for the
    // section's spare bytes.
    std::int64_t wall = kNone;
    if (active(a - 1)) wall = floor_[a - 1];
    if (active(b)) wall = std::min(wall, floor_[b]);
    if (wall == kNone) return true;
    for (int p = a; p < b; ++p) {
      const std::int64_t spare = capacity_ - floor_[p] - remaining_[p];
      std::int64_t inside = 0;
      for (const int i : crossing_[p])
        if (!placed_[i] && sections_.first[i] >= a && sections_.last[i] <= b)
          inside += buffers_[i].size;
      if (inside < wall - h - spare) return false;
    }
    return true;
  }

  // Whether k at `floor` would sit right on a placed buffer of the same lifetime and a higher
  // rank: the two stacked can swap places, so only ranks rising upward are searched (not when
  // alignment pads either size, as the swapped stack could then be taller).
  bool lands_on_higher_rank(int k, std::int64_t floor) const {
    if (buffers_[k].size % alignment_ != 0) return false;
    for (const int j : crossing_[sections_.first[k]])
      if (placed_[j] && rank_[j] > rank_[k] && buffers_[j].lower == buffers_[k].lower &&
          buffers_[j].upper == buffers_[k].upper && buffers_[j].size % alignment_ == 0 &&
          offset_[j] + buffers_[j].size == floor)
        return true;
    return false;
  }

  void open(Frame& frame, int section) {
    frame.section = section;
    frame.floor = floor_[section];
    frame.candidates.clear();
    for (const int i : crossing_[section])
      if (sits_at(i, frame.floor)) frame.candidates.push_back(i);
    frame.next = 0;
    frame.rose = false;
    frame.trying = -1;
    frame.mark = trail_.size();
  }

  // Places buffer i at `floor` (decided at `depth`); false when a section it covers can no longer
  // hold its bytes or a valley beside it can no longer be filled.
  bool place(int i, std::int64_t floor, int depth) {
    const Buffer& b = buffers_[i];
    offset_[i] = floor;
    placed_[i] = 1;
    const std::int64_t top = align_up(floor + b.size, alignment_);
    bool fits = true;
    for (int s = sections_.first[i]; s < sections_.last[i]; ++s) {
      trail_.set(remaining_[s], remaining_[s] - b.size);
      trail_.set(touched_[s], depth);
      fits = fits && (remaining_[s] == 0 || remaining_[s] <= capacity_ - top);
    }
    for (int s = sections_.first[i]; fits && s < sections_.last[i]; ++s)
      fits = raise_floor(s, top);
    return fits && valley_fillable(sections_.first[i] - 1) && valley_fillable(sections_.last[i]) &&
           valley_fillable(sections_.first[i]);
  }

  // Where the floor of `frame.section` rises to when no buffer sits at it: the lowest offset a
  // buffer of the section can take, or the top of the smallest unplaced buffer elsewhere stacked
  // on the floor (the lowest buffer of the section rests on a placed buffer or on an unplaced one
  // outside it, which sits at the floor or above); kNone when neither exists.
  std::int64_t rise(const Frame& frame) const {
    std::int64_t to = kNone;
    for (const int i : crossing_[frame.section])
      if (!placed_[i]) {
        const std::int64_t lowest = lowest_offset(i);
        if (lowest > frame.floor) to = std::min(to, lowest);
      }
    std::int64_t smallest = kNone;
    for (int i = 0; i < n_; ++i)
      if (!placed_[i] && (sections_.first[i] > frame.section || sections_.last[i] <= frame.section))
        smallest = std::min(smallest, buffers_[i].size);
    if (smallest != kNone) to = std::min(to, align_up(frame.floor + smallest, alignment_));
    return to;
  }

  // Takes the next branch of the frame at `depth`; false when the branch fails at once.
  bool branch(Frame& frame, int depth) {
    if (frame.next < frame.candidates.size()) {
      frame.trying = frame.candidates[frame.next++];
      return place(frame.trying, frame.floor, depth);
    }
    frame.rose = true;
    const std::int64_t to = rise(frame);
    if (to == kNone || remaining_[frame.section] > capacity_ - to) return false;
    trail_.set(touched_[frame.section], depth);
    return raise_floor(frame.section, to) && valley_fillable(frame.section - 1) &&
           valley_fillable(frame.section + 1) && valley_fillable(frame.section);
  }

  // Where to resume when the frame at `depth` has failed in every branch: its component's state
  // has no packing, and that state is what the decisions up to the last one that touched the
  // component made — the decisions after it worked on other components. -1: no decision touched
  // it, so the problem has no packing.
  int resume_depth(const Frame& frame) const {
    const auto [a, b] = component(frame.section);
    int last = -1;
    for (int s = a; s < b; ++s)
      last = std::max(last, static_cast<int>(touched_[s]));
    return last;
  }

  SearchOutcome search() {
    for (const Buffer& b : buffers_)
      if (b.size > capacity_) return SearchOutcome::infeasible;
    for (const std::int64_t bytes : remaining_)
      if (bytes > capacity_) return SearchOutcome::infeasible;
    for (const std::int64_t lowest : lowest_)
      if (lowest == kNone) return SearchOutcome::infeasible;
    int section = next_section();
    if (section < 0) return SearchOutcome::packed;
    int depth = 0;
    frames_.resize(1);
    open(frames_[0], section);
    while (depth >= 0) {
      Frame& frame = frames_[depth];
      if (frame.trying >= 0) placed_[frame.trying] = 0;
      frame.trying = -1;
      trail_.undo(frame.mark);
      if (frame.rose) {
        // Every branch failed: jump back to the last decision that touched this component.
        const int resume = resume_depth(frame);
        for (int d = depth - 1; d > resume; --d)
          if (frames_[d].trying >= 0) placed_[frames_[d].trying] = 0, frames_[d].trying = -1;
        depth = resume;
        continue;
      }
      if (!meter_.tick(depth + 1)) return SearchOutcome::limit;
      if (!branch(frame, depth)) continue;
      section = next_section();
      if (section < 0) return SearchOutcome::packed;
      if (++depth == static_cast<int>(frames_.size())) frames_.emplace_back();
      open(frames_[depth], section);
    }
    return SearchOutcome::infeasible;
  }

  const Problem& problem_;
  detail::SearchBuffers set_;
  const std::vector<Buffer>& buffers_;
  int n_;
  std::int64_t capacity_;
  std::int64_t alignment_;
  Sections sections_;
  std::vector<int> rank_;
  std::vector<int> twin_before_;
  detail::SearchMeter meter_;
  std::vector<std::vector<int>> crossing_;  // per section, its buffers by rank
  std::vector<std::vector<int>> starting_;  // per section, the buffers that start in it, by rank
  std::vector<char> reach_;                 // valley_fillable's pass
  // The state: the trail restores floors, bytes to place and touches on backtracking.
  std::vector<std::int64_t> remaining_;  // bytes still to place in each section
  std::vector<std::int64_t> floor_;      // per section, where its unplaced buffers start
  std::vector<std::int64_t> touched_;    // per section, the last depth whose decision changed it
  std::vector<std::int64_t> lowest_;     // per buffer, its lowest offset (unplaced buffers)
  std::vector<char> placed_;
  std::vector<std::int64_t> offset_;
  std::vector<const OffsetSet*> feasible_;  // per buffer, or empty: no sets given
  detail::Trail trail_;
  std::vector<Frame> frames_;
};

}  // namespace

ExactSearchResult skyline_search(const Problem& problem, const SearchLimits& limits,
                                 RankOrder rank_order, const SearchProgressCallback& progress,
                                 std::uint64_t shuffle, std::span<const OffsetSet> feasible) {
  return Skyline(problem, limits, rank_order, progress, shuffle, feasible).run();
}

}  // namespace memplace::allocation
