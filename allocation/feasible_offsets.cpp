#include "allocation/feasible_offsets.hpp"

#include <algorithm>
#include <span>

namespace memplace::allocation {
namespace {

using Intervals = OffsetSet::Intervals;
using Interval = Intervals::value_type;

// Every subset of a section's buffers, sorted by sum, into `sums`: the sums so far merged with
// themselves shifted by the next buffer's size (no sort: 2^(k+1) steps; ties keep the unshifted sum
// first). Merged in `sums`' storage and in storage kept per thread: a section of 18 buffers has
// 2^18 sums (4 MB), and storage allocated afresh for every section was mapped anew by the kernel
// each time — on published problem E a third of the run (docs/allocation.md, "Speed").
void subset_sums(const std::vector<Buffer>& buffers, const std::vector<int>& in,
                 std::vector<SubsetSum>& sums) {
  thread_local std::vector<SubsetSum> merged;
  const std::size_t count = std::size_t{1} << in.size();
  sums.reserve(count);
  merged.reserve(count);
  sums.assign(1, {0, 0});
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::int64_t size = buffers[in[k]].size;
    const std::uint32_t bit = std::uint32_t{1} << k;
    const std::size_t n = sums.size();
    merged.resize(2 * n);
    const SubsetSum* from = sums.data();
    SubsetSum* out = merged.data();
    std::size_t a = 0, b = 0;
    while (a < n && b < n) {
      const std::int64_t shifted = from[b].sum + size;
      if (shifted < from[a].sum)
        *out++ = {shifted, from[b++].members | bit};
      else
        *out++ = from[a++];
    }
    for (; a < n; ++a)
      *out++ = from[a];
    for (; b < n; ++b)
      *out++ = {from[b].sum + size, from[b].members | bit};
    sums.swap(merged);
  }
}

// The sums of [first, last) whose subsets leave out `self`, in order. Filtered without a branch:
// any one buffer is in half the subsets, so a branch per sum was mispredicted half the time —
// on 450-buffer problems whose windows have sections of 17 buffers (held-out seed 4019), most of
// the search's time (docs/allocation.md, "Offsets from subset sums"). Valid until the next call,
// like subset_sums'.
std::span<const std::int64_t> sums_without(std::span<const SubsetSum> sums, std::uint32_t self) {
  thread_local std::vector<std::int64_t> kept;
  kept.resize(sums.size());
  std::size_t n = 0;
  for (const SubsetSum& s : sums) {
    kept[n] = s.sum;
    n += (s.members & self) == 0;
  }
  return {kept.data(), n};
}

// The first sum from index `from` on that exceeds `x` (sums.size() if none), looked for with steps
// that double from `from`, then by bisection between the last two looks.
std::size_t first_above(std::span<const SubsetSum> sums, std::size_t from, std::int64_t x) {
  const std::size_t n = sums.size();
  std::size_t lo = from, hi = from;  // the sums in [from, lo) are <= x; sums[hi] > x or hi == n
  for (std::size_t step = 1; hi < n && sums[hi].sum <= x; step *= 2) {
    lo = hi + 1;
    hi = std::min(n, from + step);
  }
  const auto begin = sums.begin() + static_cast<std::ptrdiff_t>(lo);
  const auto end = sums.begin() + static_cast<std::ptrdiff_t>(hi);
  return static_cast<std::size_t>(
      std::partition_point(begin, end, [&](const SubsetSum& s) { return s.sum <= x; }) -
      sums.begin());
}

inline void append(Intervals& list, std::int64_t from, std::int64_t to) {
  if (!list.empty() && from <= list.back().second + 1)
    list.back().second = std::max(list.back().second, to);
  else
    list.emplace_back(from, to);
}

// allowed() by jumps (below): for each interval [lo, hi] of `within`, the ranges of the sums
// without the buffer in [lo - spare, hi], clipped to it.
void add_by_jumps(Intervals& out, const Intervals& within, std::span<const SubsetSum> sums,
                  std::uint32_t self, std::int64_t spare) {
  const std::size_t n = sums.size();
  const auto without_self = [&](std::size_t k) { return (sums[k].members & self) == 0; };
  std::size_t reach = 0;  // the first sum >= lo - spare: rises with `within`'s intervals
  for (const auto& [lo, hi] : within) {
    reach = first_above(sums, reach, lo - spare - 1);
    std::size_t k = reach;
    while (true) {
      while (k < n && !without_self(k))
        ++k;
      if (k == n || sums[k].sum > hi) break;
      const std::int64_t from = sums[k].sum;
      std::int64_t to = from + spare;
      // The sums before `taken` are <= to + 1: taken in, or holding the buffer.
      std::size_t taken = k + 1;
      while (to < hi) {
        const std::size_t next = first_above(sums, taken, to + 1);
        std::size_t last = next;  // one past the largest sum without the buffer in [taken, next)
        while (last > taken && !without_self(last - 1))
          --last;
        if (last == taken) break;
        to = std::max(to, sums[last - 1].sum + spare);
        taken = next;
      }
      append(out, std::max(from, lo), std::min(to, hi));
      if (to >= hi) break;
      k = taken;  // the sums before it are <= to + 1; the next range starts above to + 1
    }
  }
}

// allowed() in one pass (below): the ranges merged as the sums come, each merged range
// intersected with `within` at once; only the sums from `within`'s lowest offset less `spare` to
// its highest can reach it.
void add_in_one_pass(Intervals& out, const Intervals& within, std::span<const SubsetSum> sums,
                     std::uint32_t self, std::int64_t spare) {
  auto w = within.begin();
  const auto clip = [&](std::int64_t from, std::int64_t to) {
    while (w != within.end() && w->second < from)
      ++w;
    for (auto it = w; it != within.end() && it->first <= to; ++it)
      append(out, std::max(from, it->first), std::min(to, it->second));
  };
  const std::size_t first = first_above(sums, 0, within.front().first - spare - 1);
  const std::size_t last = first_above(sums, first, within.back().second);
  std::int64_t from = 0, to = -1;  // the merged range being grown (none while to < from)
  for (const std::int64_t sum : sums_without(sums.subspan(first, last - first), self)) {
    if (to >= from && sum <= to + 1) {
      to = std::max(to, sum + spare);
      continue;
    }
    if (to >= from) clip(from, to);
    from = sum, to = sum + spare;
  }
  if (to >= from) clip(from, to);
}

// The offsets of `within` that a buffer (bit `self` of the section) can take given the section's
// sorted subset sums: those within `spare` bytes above the sum of a subset without it, that is,
// the union of [sum, sum + spare] over those sums, intersected with `within`. Two ways to the same
// set (each appends in order, so each gives it merged the same way):
// - by jumps, for each interval [lo, hi] of `within`, from the sums in [lo - spare, hi]: a range
//   [from, to] takes in every sum up to to + 1 at once, as far as the largest of them without the
//   buffer (a doubling search, then a step or two back: half the subsets hold it), so a range
//   costs a few searches however many sums it covers. Where `spare` spans many sums, or `within`
//   is narrow (the sections with fewest buffers come first; on full memories most of a big
//   section's 2^17 sums reach no interval of it);
// - in one pass over the sums without the buffer (filtered without a branch), elsewhere: where
//   ranges hold a sum or two each, as on sections with no spare byte, jumps cost more than the
//   pass, whose merged ranges are intersected with `within` as they come.
// Until 2026-11-29 each interval of `within` scanned its sums one by one, which on memories with
// spare bytes ran for minutes; until 2026-12-05 the pass was taken wherever `within` was wide,
// visiting 2^16 sums for each buffer of a section of 17 however much spare merged them
// (docs/allocation.md, "Offsets from subset sums").
Intervals allowed(const Intervals& within, std::span<const SubsetSum> sums, std::uint32_t self,
                  std::int64_t spare) {
  // Grown in storage kept per thread, then copied once at its size: grown afresh, sets of
  // thousands of intervals were mapped anew page by page at every doubling.
  thread_local Intervals out;
  out.clear();
  // Jumps cost a few searches per interval of `within` and per range, of which an interval of
  // `within` holds at most one per spare + 2 bytes it and the spare bytes below it span; the pass,
  // a step or two per sum from `within`'s lowest offset less `spare` to its highest.
  double spanned = 0;
  for (const auto& [lo, hi] : within)
    spanned += static_cast<double>(hi - lo + 1 + spare);
  const double ranges = spanned / static_cast<double>(spare + 2);
  const std::size_t first = first_above(sums, 0, within.front().first - spare - 1);
  const std::size_t in_span = first_above(sums, first, within.back().second) - first;
  const bool jumps =
      16 * (2 * static_cast<double>(within.size()) + ranges) < static_cast<double>(in_span);
  if (jumps)
    add_by_jumps(out, within, sums, self, spare);
  else
    add_in_one_pass(out, within, sums, self, spare);
  return Intervals(out.begin(), out.end());
}

// The first interval of `list` that ends at or above `at` (list.size() if none), looked for from
// `hint` outwards with steps that double, then by bisection between the last two looks.
std::size_t first_ending_at_or_above(std::span<const Interval> list, std::int64_t at,
                                     std::size_t hint) {
  const std::size_t n = list.size();
  const auto ends_below = [&](std::size_t k) { return list[k].second < at; };
  std::size_t lo = 0, hi = n;  // the answer is in [lo, hi]
  if (hint >= n) {
    // No hint: the whole list.
  } else if (!ends_below(hint)) {
    hi = hint;
    for (std::size_t step = 1; hi > 0; step *= 2) {
      const std::size_t k = hi > step ? hi - step : 0;
      if (ends_below(k)) {
        lo = k + 1;
        break;
      }
      hi = k;
    }
  } else {
    lo = hint + 1;
    for (std::size_t step = 1; lo < n; step *= 2) {
      const std::size_t k = std::min(hint + step, n - 1);
      if (!ends_below(k)) {
        hi = k;
        break;
      }
      lo = k + 1;
    }
  }
  const auto begin = list.begin() + static_cast<std::ptrdiff_t>(lo);
  const auto end = list.begin() + static_cast<std::ptrdiff_t>(hi);
  return static_cast<std::size_t>(
      std::partition_point(begin, end, [&](const auto& interval) { return interval.second < at; }) -
      list.begin());
}

// The smallest multiple of `alignment` >= `at` in the intervals from `first` on; -1 if none.
std::int64_t aligned_from(std::span<const Interval> list, std::size_t first, std::int64_t at,
                          std::int64_t alignment) {
  for (std::size_t k = first; k < list.size(); ++k) {
    const std::int64_t aligned = align_up(std::max(at, list[k].first), alignment);
    if (aligned <= list[k].second) return aligned;
  }
  return -1;
}

}  // namespace

const OffsetSet::Intervals& OffsetSet::intervals() const {
  static const Intervals kNone;
  return intervals_ ? *intervals_ : kNone;
}

std::int64_t OffsetSet::at_or_above(std::int64_t at, std::int64_t alignment) const {
  const Intervals& list = intervals();
  return aligned_from(list, first_ending_at_or_above(list, at, list.size()), at, alignment);
}

std::int64_t at_or_above(std::span<const Interval> intervals, std::int64_t at,
                         std::int64_t alignment, std::uint32_t& hint) {
  const std::size_t first = first_ending_at_or_above(intervals, at, hint);
  if (first < intervals.size()) hint = static_cast<std::uint32_t>(first);
  return aligned_from(intervals, first, at, alignment);
}

std::vector<OffsetSet> feasible_offsets(const Problem& problem) {
  OffsetSetMemo memo;
  return memo(problem);
}

std::vector<OffsetSet> OffsetSetMemo::operator()(const Problem& problem) {
  if (stored_ > max_stored_words_) {
    sections_.clear();
    sets_.clear();
    stored_ = 0;
    sums_.clear();  // by ids that will now be given anew
    stored_sums_ = 0;
  }
  const std::vector<Buffer>& buffers = problem.buffers;
  const Sections sections = time_sections(buffers);
  std::vector<std::vector<int>> crossing(sections.count());
  std::vector<std::int64_t> spare(sections.count(), problem.capacity);
  for (int i = 0; i < static_cast<int>(buffers.size()); ++i)
    if (buffers[i].size > 0)
      for (int s = sections.first[i]; s < sections.last[i]; ++s) {
        crossing[s].push_back(i);
        spare[s] -= buffers[i].size;
      }
  // Each section's buffers by size, so that remembered sums (bit k: the k-th smallest) fit any
  // section of the same sizes; buffers of one size are interchangeable in them.
  for (std::vector<int>& in : crossing)
    std::stable_sort(in.begin(), in.end(),
                     [&](int a, int b) { return buffers[a].size < buffers[b].size; });
  // Each section's kind: its bytes overflow (its buffers have no offset), it has too many
  // buffers to enumerate (skipped), or the id of its spare bytes and buffer sizes.
  constexpr std::int64_t kOverflows = -1, kSkipped = -2;
  std::vector<std::int64_t> kind(sections.count());
  for (int s = 0; s < sections.count(); ++s) {
    if (spare[s] < 0) {
      kind[s] = kOverflows;
    } else if (static_cast<int>(crossing[s].size()) > kMaxSubsetBuffers + 1) {
      kind[s] = kSkipped;
    } else {
      std::vector<std::int64_t> signature{spare[s]};
      for (const int i : crossing[s])
        signature.push_back(buffers[i].size);
      std::sort(signature.begin() + 1, signature.end());
      const std::size_t words = signature.size() + kWordsPerEntry;
      const auto [at, added] = sections_.try_emplace(std::move(signature), sections_.size());
      if (added) stored_ += words;
      kind[s] = at->second;
    }
  }
  // A buffer's set is what its size and its sections' kinds make it: remembered, or computed
  // below (`fresh`).
  std::vector<OffsetSet> out(buffers.size());
  std::vector<Intervals> sets(buffers.size());  // the fresh ones'
  std::vector<std::vector<std::int64_t>> keys(buffers.size());
  std::vector<char> fresh(buffers.size(), 0);
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    std::vector<std::int64_t>& key = keys[i];
    key = {b.size, problem.capacity};
    if (b.size > 0)
      for (int s = sections.first[i]; s < sections.last[i]; ++s)
        key.push_back(kind[s]);
    if (const auto known = sets_.find(key); known != sets_.end()) {
      out[i] = OffsetSet(known->second);
      continue;
    }
    fresh[i] = 1;
    const std::int64_t highest = problem.capacity - b.size;
    if (highest >= 0) sets[i].emplace_back(0, highest);
    if (std::find(key.begin() + 2, key.end(), kOverflows) != key.end()) sets[i].clear();
  }
  // Section by section, the fewest buffers first (the sets narrow before the big sections are
  // enumerated), each section's subset sums made once and dropped after use; only the sections
  // of buffers not remembered.
  std::vector<int> order;
  for (int s = 0; s < sections.count(); ++s)
    if (kind[s] >= 0 && std::any_of(crossing[s].begin(), crossing[s].end(),
                                    [&](int i) { return fresh[i] && !sets[i].empty(); }))
      order.push_back(s);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return crossing[a].size() < crossing[b].size(); });
  for (const int s : order) {
    const std::span<const SubsetSum> sums = sums_of(kind[s], buffers, crossing[s]);
    for (std::size_t k = 0; k < crossing[s].size(); ++k) {
      const int i = crossing[s][k];
      if (fresh[i] && !sets[i].empty())
        sets[i] = allowed(sets[i], sums, std::uint32_t{1} << k, spare[s]);
    }
  }
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (!fresh[i]) continue;
    const std::size_t words = keys[i].size() + 2 * sets[i].size() + kWordsPerEntry;
    out[i] = OffsetSet(std::move(sets[i]));
    if (sets_.try_emplace(std::move(keys[i]), out[i].shared()).second) stored_ += words;
  }
  return out;
}

std::span<const SubsetSum> OffsetSetMemo::sums_of(std::int64_t id,
                                                  const std::vector<Buffer>& buffers,
                                                  const std::vector<int>& in) {
  ++clock_;
  if (const auto known = sums_.find(id); known != sums_.end()) {
    known->second.used = clock_;
    return known->second.sums;
  }
  std::vector<SubsetSum> storage;  // an evicted section's, when one is: no fresh mapping
  const std::size_t count = std::size_t{1} << in.size();
  while (!sums_.empty() && stored_sums_ + count > max_stored_sums_) {
    const auto oldest = std::min_element(
        sums_.begin(), sums_.end(),
        [](const auto& a, const auto& b) { return a.second.used < b.second.used; });
    stored_sums_ -= oldest->second.sums.capacity();
    storage = std::move(oldest->second.sums);
    sums_.erase(oldest);
  }
  subset_sums(buffers, in, storage);
  stored_sums_ += storage.capacity();
  StoredSums& stored = sums_[id];
  stored = {std::move(storage), clock_};
  return stored.sums;
}

}  // namespace memplace::allocation
