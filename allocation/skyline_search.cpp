#include "allocation/skyline_search.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <memory>
#include <optional>

#include "allocation/feasible_offsets.hpp"
#include "allocation/search_common.hpp"
#include "base/rng.hpp"

namespace memplace::allocation {
namespace {

using detail::kNone;

// A set of decision depths below a fixed bound, as bits: the decisions a failure depends on. Only
// the words in use are touched, as a search's depths stay far below the bound.
class DepthSet {
 public:
  explicit DepthSet(int words = 0) : words_(words, 0) {}
  void clear() {
    std::fill(words_.begin(), words_.begin() + used_, 0);
    used_ = 0;
  }
  void add(std::span<const std::uint64_t> other) {
    for (std::size_t w = 0; w < other.size(); ++w)
      words_[w] |= other[w];
    used_ = std::max(used_, other.size());
  }
  void add_word(int w, std::uint64_t bits) {
    words_[w] |= bits;
    used_ = std::max(used_, static_cast<std::size_t>(w) + 1);
  }
  // Adds every depth below `depth`.
  void add_below(int depth) {
    depth = std::min(depth, static_cast<int>(words_.size()) * 64);
    const std::size_t full = depth / 64;
    std::fill(words_.begin(), words_.begin() + full, ~std::uint64_t{0});
    const bool partial = depth % 64 != 0;
    if (partial) words_[full] |= (std::uint64_t{1} << (depth % 64)) - 1;
    used_ = std::max(used_, full + partial);
  }
  // The highest depth below `depth` in the set, or -1.
  int highest_below(int depth) const {
    for (int w = std::min(static_cast<int>(used_) - 1, depth / 64); w >= 0; --w) {
      std::uint64_t bits = words_[w];
      if (w == depth / 64) bits &= (std::uint64_t{1} << (depth % 64)) - 1;
      if (bits) return w * 64 + std::bit_width(bits) - 1;
    }
    return -1;
  }
  std::span<const std::uint64_t> words() const { return {words_.data(), used_}; }
  std::size_t bound_words() const { return words_.size(); }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t used_ = 0;  // words_ beyond it are zero
};

class Skyline {
 public:
  Skyline(const Problem& problem, RankOrder rank_order, std::uint64_t shuffle,
          std::span<const OffsetSet> feasible)
      : problem_(problem),
        set_(problem),
        buffers_(set_.buffers),
        n_(static_cast<int>(buffers_.size())),
        capacity_(problem.capacity),
        alignment_(problem.alignment),
        sections_(time_sections(buffers_)),
        rank_(shuffled(detail::tie_break_ranks(buffers_, rank_order), shuffle)),
        twin_before_(detail::twins_before(buffers_, rank_)) {
    const int sections = sections_.count();
    // Placements and rises: a few per section beyond the buffers covers every search tried; a
    // decision deeper than this is recorded in no conflict set, so its frame backtracks
    // chronologically (search()).
    recorded_depths_ = n_ + 4 * sections + 64;
    words_ = recorded_depths_ / 64 + 1;
    touches_.assign(static_cast<std::size_t>(sections) * words_, 0);
    why_ = DepthSet(words_);
    crossing_.resize(sections);
    starting_.resize(sections);
    remaining_.assign(sections, 0);
    holding_hint_.assign(sections, {});
    list_stacks();
    floor_.assign(sections, 0);
    lowest_.assign(n_, 0);
    highest_.assign(n_, 0);
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
    inside_.assign(sections + 1, 0);
    sitting_.assign(sections + 1, 0);
    placed_.assign(n_, 0);
    offset_.assign(n_, 0);
    if (!feasible.empty())
      for (int i = 0; i < n_; ++i)
        feasible_.push_back({feasible[set_.original[i]].intervals()});
    for (int i = 0; i < n_; ++i) {
      lowest_[i] = resting_offset(i, 0);
      highest_[i] = sections_.first[i];
    }
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

  // Searches on from where the last call stopped, within `limits` (counted from this call).
  ExactSearchResult run(const SearchLimits& limits, const SearchProgressCallback& progress) {
    meter_.emplace(limits, progress, n_);
    if (!ended_) {
      const SearchOutcome outcome = resume_depth_ < 0 ? search() : search_on(resume_depth_);
      if (outcome != SearchOutcome::limit) ended_ = outcome;
    }
    ExactSearchResult result = detail::search_result(ended_.value_or(SearchOutcome::limit), *meter_,
                                                     set_, problem_, offset_);
    meter_.reset();  // it holds `progress`, which is the caller's
    return result;
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
    DepthSet conflict;     // the earlier decisions its failed branches and its choices depend on
  };

  bool active(int s) const { return s >= 0 && s < sections_.count() && remaining_[s] > 0; }

  // A buffer's lowest offset: the highest floor of its sections, raised to the next offset it
  // can take in any packing (kept in lowest_).
  std::int64_t lowest_offset(int i) const { return lowest_[i]; }

  // The lowest offset >= `at` that buffer i can take in any packing (feasible_offsets.hpp); kNone
  // when there is none.
  std::int64_t resting_offset(int i, std::int64_t at) const {
    if (feasible_.empty()) return at;
    FeasibleLook& look = feasible_[i];
    const std::int64_t offset = at_or_above(look.intervals, at, alignment_, look.hint);
    return offset < 0 ? kNone : offset;
  }

  // Section s's floor rose to `to`: its unplaced buffers' lowest offsets follow, and every
  // section those buffers cover is checked — its bytes to place must fit above the lowest offset
  // any of its unplaced buffers can take (on a full memory: some buffer must still be able to sit
  // right at its floor). False when one cannot.
  bool raise_floor(int s, std::int64_t to) {
    trail_.set(floor_[s], to);
    return raise_lowest(crossing_[s], s, to);
  }
  // The floors of the sections [first, last) rose to `to` together (a buffer was placed): the
  // same as raising them one by one, but a buffer crossing an earlier section of them was raised
  // there already, so each later section looks only at the buffers that start in it (the scans of
  // whole sections were most of a search's time).
  bool raise_floors(int first, int last, std::int64_t to) {
    bool ok = raise_floor(first, to);
    for (int s = first + 1; ok && s < last; ++s) {
      trail_.set(floor_[s], to);
      ok = raise_lowest(starting_[s], s, to);
    }
    return ok;
  }
  // Section s's floor rose to `to`: raises the lowest offsets of `buffers` (of s, each met at the
  // first of its sections that this rise raised) below `to`, follows their highest sections, and
  // checks the sections they cover.
  bool raise_lowest(std::span<const int> buffers, int s, std::int64_t to) {
    bool ok = true;
    for (const int i : buffers) {
      if (lowest_[i] >= to) {  // (a placed buffer's is kNone)
        const std::int64_t highest = highest_[i];
        if (highest != s && !placed_[i] &&
            (to > floor_[highest] || (to == floor_[highest] && s < highest)))
          trail_.set(highest_[i], s);
        continue;
      }
      // Its floors were at most its lowest offset, below `to`: s is now its only highest.
      if (highest_[i] != s) trail_.set(highest_[i], s);
      trail_.set(lowest_[i], resting_offset(i, to));
      // A section whose bytes to place fit above i's own lowest offset fits above the lowest
      // of all its unplaced buffers too: no need to look at the others.
      const std::int64_t above_lowest = capacity_ - lowest_[i];
      for (int t = sections_.first[i]; ok && t < sections_.last[i]; ++t)
        ok = remaining_[t] <= above_lowest || section_holds(t, to);
    }
    return ok;
  }
  // Fails with the reason in why_: the section's placed buffers and floor, and what holds each
  // unplaced buffer's lowest offset up. Checked while floors rise to `to`.
  bool section_holds(int t, std::int64_t to) {
    if (remaining_[t] == 0) return true;
    // Any one unplaced buffer low enough will do. On full memories a rise checks every section
    // it touches, and this was most of a search's time: the look starts at the buffer that held
    // last time (a hint only, so it is not undone on backtracking).
    const std::int64_t highest_fitting = capacity_ - remaining_[t];
    if (detail::holds_from_hint(crossing_[t], holding_hint_[t],
                                [&](int i) { return lowest_[i] <= highest_fitting; }))
      return true;
    blame_section(why_, t);
    // A floor above an unplaced buffer's lowest offset is one this rise set to `to` before the
    // buffer's turn came, so none of its floors is above the higher of the two.
    for (const int i : crossing_[t])
      if (!placed_[i]) blame_lowest(why_, i, std::max(lowest_[i], to));
    return false;
  }

  // Conflict sets (conflict-directed backjumping). The state of a section — its floor, and which
  // of its buffers are placed where — is made by the decisions that touched it: placements of its
  // buffers and rises of its floor. A check that fails names the sections it read, and the
  // decisions that touched them are the failure's reason: with them unchanged it fails again,
  // whatever is decided elsewhere. When every branch of a decision has failed, the search jumps
  // back to the latest decision among its branches' reasons (and what limited its branches) — past
  // the decisions made in other parts of the schedule, which the fewest-branches rule interleaves.
  void touch(int s, int depth) {
    if (depth >= recorded_depths_) return;
    std::int64_t& word = touches_[static_cast<std::size_t>(depth / 64) * sections_.count() + s];
    trail_.set(word, word | static_cast<std::int64_t>(std::uint64_t{1} << (depth % 64)));
  }
  // Adds the decisions that touched section s (those up to the current depth: deeper ones are
  // undone).
  void blame_section(DepthSet& why, int s) const { blame_sections(why, s, s + 1); }
  // Adds the decisions that touched any of the sections [first, last).
  void blame_sections(DepthSet& why, int first, int last) const {
    const int words = std::min(words_, depth_ / 64 + 1);
    for (int w = 0; w < words; ++w) {
      const std::int64_t* row = &touches_[static_cast<std::size_t>(w) * sections_.count()];
      std::int64_t bits = 0;
      for (int s = first; s < last; ++s)
        bits |= row[s];
      why.add_word(w, static_cast<std::uint64_t>(bits));
    }
  }
  // An unplaced buffer's lowest offset is its highest section's floor, raised to a feasible offset:
  // the first of its sections at the highest floor, looked for while a rise is under way (highest_
  // is not yet followed then). `ceiling` is a floor that none of its sections is above, so the look
  // stops at a section right at it (these looks were a sixth of a search's time).
  void blame_lowest(DepthSet& why, int i, std::int64_t ceiling) const {
    int highest = sections_.first[i];
    for (int s = highest + 1; s < sections_.last[i] && floor_[highest] != ceiling; ++s)
      if (floor_[s] > floor_[highest]) highest = s;
    blame_section(why, highest);
  }

  // Where to decide next: in the earliest component (a run of sections with bytes to place, which
  // shares no buffer with any other), among the sections at the lowest floor, the one with the
  // fewest branches (its candidates, plus the rising branch where it has a spare byte; the
  // earliest of ties); -1 when every buffer is placed. Any section at the lowest floor is a
  // complete choice (its lowest buffer sits at the floor or above it), so the search takes the
  // one that fails or forces first.
  int next_section() {
    // A section with no bytes left to place keeps none deeper in the search, so the look for the
    // first active one starts where the last look ended (trailed, so undone on backtracking).
    int s = static_cast<int>(first_active_);
    while (s < sections_.count() && !active(s))
      ++s;
    if (s != first_active_) trail_.set(first_active_, s);
    if (s == sections_.count()) return -1;
    std::int64_t lowest = kNone;
    int end = s;
    for (; active(end); ++end)
      lowest = std::min(lowest, floor_[end]);
    // A buffer that can sit at the lowest floor lies in sections all at that floor (its lowest
    // offset is at least each of their floors), so it is a candidate in every section it covers:
    // counted once, in the section it starts in, and taken off where it ends (sitting_, a
    // difference array). (Counted section by section, over each one's buffers, this was a sixth
    // of the search's time.) The look stops at a section of no branches, so no later buffer is
    // looked at then.
    std::fill(sitting_.begin() + s, sitting_.begin() + end + 1, 0);
    int best = -1;
    int fewest = std::numeric_limits<int>::max();
    for (int t = s, sitting = 0; t < end && fewest > 0; ++t) {
      sitting += sitting_[t];
      if (floor_[t] != lowest) continue;
      for (const int i : starting_[t])
        if (sits_at(i, lowest)) ++sitting, --sitting_[sections_.last[i]];
      const int branches = sitting + (remaining_[t] < capacity_ - lowest ? 1 : 0);
      if (branches < fewest) best = t, fewest = branches;
    }
    return best;
  }

  // Whether buffer i, crossing a section at `floor` (the lowest floor), can sit right at it.
  bool sits_at(int i, std::int64_t floor) const {
    return !placed_[i] && (twin_before_[i] < 0 || placed_[twin_before_[i]]) &&
           lowest_offset(i) == floor && !lands_on_higher_rank(i, floor);
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
    const auto fail = [&] {
      for (int p = std::max(a - 1, 0); p <= std::min(b, sections_.count() - 1); ++p)
        blame_section(why_, p);
      return false;
    };
    if (!reach_[b]) return fail();
    // Up to the lower wall, the valley is a pit: a buffer that reaches over a wall sits above it,
    // so in each section the pit's height is filled by buffers inside the valley, but for the
    // section's spare bytes.
    std::int64_t wall = kNone;
    if (active(a - 1)) wall = floor_[a - 1];
    if (active(b)) wall = std::min(wall, floor_[b]);
    if (wall == kNone) return true;
    // The bytes of the unplaced buffers inside the valley, per section: added where each starts
    // and taken off where it ends (a pass over the starts, not over every section's buffers).
    std::fill(inside_.begin() + a, inside_.begin() + b + 1, 0);
    for (int p = a; p < b; ++p)
      for (const int i : starting_[p])
        if (!placed_[i] && sections_.last[i] <= b) {
          inside_[p] += buffers_[i].size;
          inside_[sections_.last[i]] -= buffers_[i].size;
        }
    std::int64_t inside = 0;
    for (int p = a; p < b; ++p) {
      inside += inside_[p];
      const std::int64_t spare = capacity_ - floor_[p] - remaining_[p];
      if (inside < wall - h - spare) return fail();
    }
    return true;
  }

  // Whether k at `floor` would sit right on a placed buffer of the same lifetime and a higher
  // rank: the two stacked can swap places, so only ranks rising upward are searched (not when
  // alignment pads either size, as the swapped stack could then be taller).
  bool lands_on_higher_rank(int k, std::int64_t floor) const {
    for (int p = stackable_[k].first; p < stackable_[k].second; ++p) {
      const int j = stacks_[p];
      if (placed_[j] && offset_[j] + buffers_[j].size == floor) return true;
    }
    return false;
  }
  // The buffers whose sizes are multiples of the alignment, grouped by lifetime and each group in
  // rank order (stacks_), and per buffer the part of its group above its rank (stackable_; empty
  // for the others). Most buffers share their lifetime with none, and the check runs for every
  // candidate: it scanned the whole section before.
  void list_stacks() {
    stackable_.assign(n_, {0, 0});
    for (int i = 0; i < n_; ++i)
      if (buffers_[i].size % alignment_ == 0) stacks_.push_back(i);
    const auto lifetime = [&](int i) { return std::pair{buffers_[i].lower, buffers_[i].upper}; };
    std::sort(stacks_.begin(), stacks_.end(), [&](int x, int y) {
      return std::pair{lifetime(x), rank_[x]} < std::pair{lifetime(y), rank_[y]};
    });
    const int count = static_cast<int>(stacks_.size());
    for (int a = 0; a < count;) {
      int b = a + 1;
      while (b < count && lifetime(stacks_[b]) == lifetime(stacks_[a]))
        ++b;
      for (int p = a; p < b; ++p)
        stackable_[stacks_[p]] = {p + 1, b};
      a = b;
    }
  }

  void open(Frame& frame, int section) {
    frame.section = section;
    frame.floor = floor_[section];
    frame.candidates.clear();
    for (const int i : crossing_[section])
      if (sits_at(i, frame.floor)) frame.candidates.push_back(i);
    if (frame.conflict.bound_words() == 0) frame.conflict = DepthSet(words_);
    frame.conflict.clear();
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
    trail_.set(lowest_[i], kNone);  // the hot checks of lowest offsets then skip it as too high
    const std::int64_t top = align_up(floor + b.size, alignment_);
    bool fits = true;
    for (int s = sections_.first[i]; s < sections_.last[i]; ++s) {
      trail_.set(remaining_[s], remaining_[s] - b.size);
      touch(s, depth);
      if (fits && remaining_[s] != 0 && remaining_[s] > capacity_ - top) {
        fits = false;
        blame_section(why_, s);
      }
    }
    return fits && raise_floors(sections_.first[i], sections_.last[i], top) &&
           valley_fillable(sections_.first[i] - 1) && valley_fillable(sections_.last[i]) &&
           valley_fillable(sections_.first[i]);
  }

  // The sections [first, last) spanned by the unplaced buffers of section s: a buffer the lowest
  // of them could rest on lives within it, and so does the reason of a rise.
  std::pair<int, int> unplaced_span(int s) const {
    int first = s, last = s + 1;
    for (const int i : crossing_[s])
      if (!placed_[i]) {
        first = std::min(first, sections_.first[i]);
        last = std::max(last, sections_.last[i]);
      }
    return {first, last};
  }

  // Where the floor of `frame.section` rises to when no buffer sits at it: the lowest offset a
  // buffer of the section can take, or the lowest top of an unplaced buffer elsewhere it could
  // rest on (the lowest buffer of the section rests on a placed buffer, which its lowest offset
  // accounts for, or on an unplaced one outside the section that lives in its span and sits at or
  // above the highest floor it shares with that span); kNone when neither exists. It reads only
  // the sections of the span, so the decisions that touched them are its reason.
  std::int64_t rise(const Frame& frame, std::pair<int, int> span) const {
    std::int64_t to = kNone;
    for (const int i : crossing_[frame.section])
      if (!placed_[i]) {
        const std::int64_t lowest = lowest_offset(i);
        if (lowest > frame.floor) to = std::min(to, lowest);
      }
    // The buffers outside the section that live in its span: those that start in the span before
    // the section or reach into it from before, and those that start after the section.
    const auto [first, last] = span;
    const auto consider = [&](int j) {
      if (!placed_[j]) to = std::min(to, resting_top(j, span, to));
    };
    for (int t = first; t < frame.section; ++t)
      for (const int j : starting_[t])
        if (sections_.last[j] <= frame.section) consider(j);
    for (const int j : crossing_[first])
      if (sections_.first[j] < first && sections_.last[j] <= frame.section) consider(j);
    for (int t = frame.section + 1; t < last; ++t)
      for (const int j : starting_[t])
        consider(j);
    return to;
  }
  // The lowest top of unplaced buffer j given the floors of the sections it shares with `span`,
  // or kNone when it cannot be below `below` (its feasible offsets are looked up only then).
  std::int64_t resting_top(int j, std::pair<int, int> span, std::int64_t below) const {
    std::int64_t at = 0;
    // (The look stops once the top is too high: floors only add to it.)
    for (int t = std::max(sections_.first[j], span.first);
         t < std::min(sections_.last[j], span.second) && at < below - buffers_[j].size; ++t)
      at = std::max(at, floor_[t]);
    if (align_up(at + buffers_[j].size, alignment_) >= below) return kNone;
    at = resting_offset(j, at);
    return at == kNone ? kNone : align_up(at + buffers_[j].size, alignment_);
  }

  // Takes the next branch of the frame at `depth`; false when the branch fails at once, with its
  // reason added to the frame's conflict set.
  bool branch(Frame& frame, int depth) {
    why_.clear();
    bool ok;
    if (frame.next < frame.candidates.size()) {
      frame.trying = frame.candidates[frame.next++];
      ++placed_buffers_;
      ok = place(frame.trying, frame.floor, depth);
    } else {
      frame.rose = true;
      // No spare byte: the floor cannot rise, whatever it would rise to (the reason is the
      // section's, in the conflict set since the frame opened).
      if (remaining_[frame.section] >= capacity_ - frame.floor) return false;
      // Where the floor rises to is read from the sections spanned by the section's unplaced
      // buffers (rise()): the decisions that touched them are its reason.
      const std::pair<int, int> span = unplaced_span(frame.section);
      blame_sections(frame.conflict, span.first, span.second);
      const std::int64_t to = rise(frame, span);
      if (to == kNone || remaining_[frame.section] > capacity_ - to) return false;
      touch(frame.section, depth);
      ok = raise_floor(frame.section, to) && valley_fillable(frame.section - 1) &&
           valley_fillable(frame.section + 1) && valley_fillable(frame.section);
    }
    if (!ok) frame.conflict.add(why_.words());
    return ok;
  }

  // When every branch of a frame has failed (the state is again the one it opened in): what
  // limited its branches joins its conflict set — what made the section's floor, and what keeps
  // each other buffer of the section from sitting at it. (No check is under way, so no floor of a
  // buffer's sections is above its lowest offset.)
  void blame_choices(Frame& frame) {
    blame_section(frame.conflict, frame.section);
    for (const int i : crossing_[frame.section])
      if (!placed_[i] && !sits_at(i, frame.floor)) {
        // Held up, or it would land on a twin placed below it (a twin unplaced is the section's).
        if (lowest_offset(i) != frame.floor)
          blame_section(frame.conflict, static_cast<int>(highest_[i]));
        else if (lands_on_higher_rank(i, frame.floor))
          blame_section(frame.conflict, sections_.first[i]);
      }
  }

  SearchOutcome search() {
    for (const Buffer& b : buffers_)
      if (b.size > capacity_) return SearchOutcome::infeasible;
    for (const std::int64_t bytes : remaining_)
      if (bytes > capacity_) return SearchOutcome::infeasible;
    for (const std::int64_t lowest : lowest_)
      if (lowest == kNone) return SearchOutcome::infeasible;
    const int section = next_section();
    if (section < 0) return SearchOutcome::packed;
    frames_.resize(1);
    open(frames_[0], section);
    return search_on(0);
  }

  // The search loop, from the decision at `depth` (its next branch): from the first decision, or
  // where a placement limit stopped the last call.
  SearchOutcome search_on(int depth) {
    while (depth >= 0) {
      depth_ = depth;
      Frame& frame = frames_[depth];
      if (frame.trying >= 0) placed_[frame.trying] = 0, --placed_buffers_;
      frame.trying = -1;
      trail_.undo(frame.mark);
      if (frame.rose) {
        blame_choices(frame);
        // Every branch failed: jump back to the latest decision among the reasons, which inherits
        // the rest of them (a decision too deep to be recorded goes back one step, with all).
        int resume = depth - 1;
        if (depth < recorded_depths_)
          resume = frame.conflict.highest_below(depth);
        else if (resume >= 0)
          frames_[resume].conflict.add_below(resume);
        for (int d = depth - 1; d > resume; --d)
          if (frames_[d].trying >= 0)
            placed_[frames_[d].trying] = 0, frames_[d].trying = -1, --placed_buffers_;
        if (resume >= 0 && depth < recorded_depths_)
          frames_[resume].conflict.add(frame.conflict.words());
        depth = resume;
        continue;
      }
      // Decisions (the depth) are placements and rises; the meter counts buffers placed.
      if (!meter_->tick(placed_buffers_ + 1)) {
        resume_depth_ = depth;  // nothing of this decision's next branch is done yet
        return SearchOutcome::limit;
      }
      if (!branch(frame, depth)) continue;
      const int section = next_section();
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
  std::vector<int> stacks_;                     // list_stacks()
  std::vector<std::pair<int, int>> stackable_;  // per buffer, a range of stacks_
  std::optional<detail::SearchMeter> meter_;    // during run()
  std::vector<std::vector<int>> crossing_;      // per section, its buffers by rank
  std::vector<std::vector<int>> starting_;     // per section, the buffers that start in it, by rank
  std::vector<char> reach_;                    // valley_fillable's pass
  std::vector<std::int64_t> inside_;           // and its bytes inside the valley, per section
  std::vector<int> sitting_;                   // next_section's candidates, as a difference array
  std::vector<detail::Witness> holding_hint_;  // per section, section_holds' last witness
  // The state: the trail restores floors, bytes to place and touches on backtracking.
  std::vector<std::int64_t> remaining_;  // bytes still to place in each section
  std::vector<std::int64_t> floor_;      // per section, where its unplaced buffers start
  // Bit d of word w / 64 of section s, at [w / 64 * sections + s], set when the decision at depth d
  // touched section s (word-major: a placement touches neighbouring sections).
  std::vector<std::int64_t> touches_;
  std::vector<std::int64_t> lowest_;  // per buffer, its lowest offset; kNone once placed
  // Per unplaced buffer, the first of its sections at the highest of their floors, which holds its
  // lowest offset up (followed as floors rise: found by a look over its sections when a decision
  // had failed, it was a tenth of a deep search's time).
  std::vector<std::int64_t> highest_;
  std::vector<char> placed_;
  int placed_buffers_ = 0;  // buffers placed by the decisions on the stack (rises place none)
  std::vector<std::int64_t> offset_;
  // A buffer's feasible offsets, held here rather than through the set's shared storage (the
  // chain of pointers to it missed the cache), and where in them the last look found its offset (a
  // hint only, so not undone on backtracking).
  struct FeasibleLook {
    std::span<const OffsetSet::Intervals::value_type> intervals;
    std::uint32_t hint = 0;
  };
  mutable std::vector<FeasibleLook> feasible_;  // per buffer, or empty: no sets given
  detail::Trail trail_;
  std::vector<Frame> frames_;
  int recorded_depths_ = 0;  // decisions at lower depths are recorded in conflict sets
  int words_ = 0;
  DepthSet why_;                        // the reason of the check that failed last
  int depth_ = 0;                       // the decision being taken or undone
  std::int64_t first_active_ = 0;       // no section before it has bytes to place (next_section())
  int resume_depth_ = -1;               // where the last run() stopped at its limit, if it did
  std::optional<SearchOutcome> ended_;  // packed or infeasible, once a run() decided
};

}  // namespace

struct SkylineSearch::State : Skyline {
  using Skyline::Skyline;
};

SkylineSearch::SkylineSearch(const Problem& problem, RankOrder rank_order, std::uint64_t shuffle,
                             std::span<const OffsetSet> feasible)
    : state_(std::make_unique<State>(problem, rank_order, shuffle, feasible)) {}

SkylineSearch::~SkylineSearch() = default;
SkylineSearch::SkylineSearch(SkylineSearch&&) noexcept = default;
SkylineSearch& SkylineSearch::operator=(SkylineSearch&&) noexcept = default;

ExactSearchResult SkylineSearch::run(const SearchLimits& limits,
                                     const SearchProgressCallback& progress) {
  return state_->run(limits, progress);
}

ExactSearchResult skyline_search(const Problem& problem, const SearchLimits& limits,
                                 RankOrder rank_order, const SearchProgressCallback& progress,
                                 std::uint64_t shuffle, std::span<const OffsetSet> feasible) {
  return SkylineSearch(problem, rank_order, shuffle, feasible).run(limits, progress);
}

}  // namespace memplace::allocation
