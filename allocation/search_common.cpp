#include "allocation/search_common.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace memplace::allocation::detail {

SearchBuffers::SearchBuffers(const Problem& problem) {
  for (std::size_t i = 0; i < problem.buffers.size(); ++i)
    if (problem.buffers[i].size > 0) {
      buffers.push_back(problem.buffers[i]);
      original.push_back(i);
    }
}

std::vector<std::int64_t> SearchBuffers::problem_offsets(
    const Problem& problem, const std::vector<std::int64_t>& offsets) const {
  std::vector<std::int64_t> out(problem.buffers.size(), 0);
  for (std::size_t i = 0; i < original.size(); ++i)
    out[original[i]] = offsets[i];
  return out;
}

namespace {

using TrailStorage = std::vector<std::pair<std::int64_t*, std::int64_t>>;
// Ended trails' storage, kept for the next trails on this thread.
constexpr std::size_t kKeptTrails = 4;
thread_local std::vector<TrailStorage> kept_trails;

}  // namespace

Trail::Trail() {
  if (!kept_trails.empty()) {
    entries_ = std::move(kept_trails.back());
    kept_trails.pop_back();
  }
}

Trail::~Trail() {
  if (entries_.capacity() == 0 || kept_trails.size() == kKeptTrails) return;
  entries_.clear();
  kept_trails.push_back(std::move(entries_));
}

namespace {

// For each buffer, the most bytes live at one step of its life (every buffer counted).
std::vector<std::int64_t> busiest_section_bytes(const std::vector<Buffer>& buffers) {
  const Sections sections = time_sections(buffers);
  std::vector<std::int64_t> total(sections.count(), 0);
  for (std::size_t i = 0; i < buffers.size(); ++i)
    for (int s = sections.first[i]; s < sections.last[i]; ++s)
      total[s] += buffers[i].size;
  std::vector<std::int64_t> busiest(buffers.size(), 0);
  for (std::size_t i = 0; i < buffers.size(); ++i)
    for (int s = sections.first[i]; s < sections.last[i]; ++s)
      busiest[i] = std::max(busiest[i], total[s]);
  return busiest;
}

}  // namespace

std::vector<int> tie_break_ranks(const std::vector<Buffer>& buffers, RankOrder order) {
  const std::vector<std::int64_t> busiest = order == RankOrder::busiest_section
                                                ? busiest_section_bytes(buffers)
                                                : std::vector<std::int64_t>(buffers.size(), 0);
  // Each order as a key, smaller first.
  const auto key = [&](int i) -> std::tuple<std::int64_t, std::int64_t, std::int64_t> {
    const Buffer& b = buffers[i];
    const std::int64_t life = b.upper - b.lower;
    switch (order) {
      case RankOrder::size:
        return {-b.size, -life, 0};
      case RankOrder::lifetime:
        return {-life, -b.size, 0};
      case RankOrder::area:
        return {-b.size * life, -b.size, 0};
      case RankOrder::short_lifetime:
        return {life, -b.size, 0};
      case RankOrder::early_end:
        return {b.upper, -b.size, 0};
      case RankOrder::late_end:
        return {-b.upper, -b.size, 0};
      case RankOrder::busiest_section:
        return {-busiest[i], -life, -b.size * life};
    }
    return {0, 0, 0};
  };
  const int n = static_cast<int>(buffers.size());
  std::vector<int> by_key(n);
  std::iota(by_key.begin(), by_key.end(), 0);
  std::stable_sort(by_key.begin(), by_key.end(), [&](int a, int b) { return key(a) < key(b); });
  std::vector<int> rank(n);
  for (int r = 0; r < n; ++r)
    rank[by_key[r]] = r;
  return rank;
}

std::vector<int> twins_before(const std::vector<Buffer>& buffers, const std::vector<int>& rank) {
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::vector<int>> groups;
  for (int i = 0; i < static_cast<int>(buffers.size()); ++i)
    groups[{buffers[i].lower, buffers[i].upper, buffers[i].size}].push_back(i);
  std::vector<int> before(buffers.size(), -1);
  for (auto& [key, members] : groups) {
    std::sort(members.begin(), members.end(), [&](int a, int b) { return rank[a] < rank[b]; });
    for (std::size_t m = 1; m < members.size(); ++m)
      before[members[m]] = members[m - 1];
  }
  return before;
}

SearchMeter::SearchMeter(const SearchLimits& limits, const SearchProgressCallback& progress,
                         int buffers)
    : progress_(progress),
      start_(Clock::now()),
      deadline_(start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(limits.seconds))),
      next_report_(start_ + std::chrono::seconds(1)),
      max_placements_(limits.placements),
      buffers_(buffers) {}

bool SearchMeter::tick(int depth) {
  if (nodes_ == max_placements_ && max_placements_ > 0) return false;
  ++nodes_;
  deepest_ = std::max(deepest_, depth);
  if ((nodes_ & 1023) == 0) {
    const Clock::time_point now = Clock::now();
    if (now > deadline_) return false;
    if (progress_ && now >= next_report_) {
      next_report_ = now + std::chrono::seconds(1);
      progress_(SearchProgress{nodes_, deepest_, buffers_, seconds(), {}});
    }
  }
  return true;
}

double SearchMeter::seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

ExactSearchResult search_result(SearchOutcome outcome, const SearchMeter& meter,
                                const SearchBuffers& set, const Problem& problem,
                                const std::vector<std::int64_t>& offsets) {
  ExactSearchResult result;
  result.outcome = outcome;
  result.nodes = meter.nodes();
  result.seconds = meter.seconds();
  result.deepest = meter.deepest();
  if (outcome == SearchOutcome::packed) result.offsets = set.problem_offsets(problem, offsets);
  return result;
}

}  // namespace memplace::allocation::detail
