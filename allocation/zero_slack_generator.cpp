#include "allocation/zero_slack_generator.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "base/rng.hpp"

namespace memplace::allocation {
namespace {

struct Segment {
  std::int64_t begin = 0;  // address range [begin, end)
  std::int64_t end = 0;
  std::int64_t since = 0;  // the step it became live
};

// [begin, end) cut at `pieces` - 1 distinct random addresses (pieces <= end - begin).
std::vector<Segment> cut(std::int64_t begin, std::int64_t end, int pieces, std::int64_t step,
                         Rng& rng) {
  std::vector<std::int64_t> cuts;
  while (static_cast<int>(cuts.size()) < pieces - 1) {
    const auto at = begin + 1 + static_cast<std::int64_t>(rng.uniform(end - begin - 1));
    if (std::find(cuts.begin(), cuts.end(), at) == cuts.end()) cuts.push_back(at);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.insert(cuts.begin(), begin);
  cuts.push_back(end);
  std::vector<Segment> segments;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    segments.push_back(Segment{cuts[i], cuts[i + 1], step});
  return segments;
}

// 0 .. n - 1 in a random order (Fisher-Yates).
std::vector<std::size_t> shuffled_positions(std::size_t n, Rng& rng) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[rng.uniform(i)]);
  return order;
}

}  // namespace

ZeroSlackProblem generate_zero_slack(int buffers, std::int64_t capacity, std::uint64_t seed) {
  if (buffers < 1) throw std::invalid_argument("generate_zero_slack: buffers must be >= 1");
  if (capacity < buffers)
    throw std::invalid_argument("generate_zero_slack: the capacity must be at least the buffers");
  Rng rng(derive_seed(seed, {0x5a65726f536c61ULL}));  // "ZeroSla"
  std::vector<Buffer> made;
  std::vector<std::int64_t> offsets;
  const auto close = [&](const Segment& s, std::int64_t step) {
    made.push_back(Buffer{"", s.since, step, s.end - s.begin});
    offsets.push_back(s.begin);
  };
  std::vector<Segment> live = cut(0, capacity, std::clamp(buffers / 16, 1, buffers), 0, rng);
  int total = static_cast<int>(live.size());
  std::int64_t step = 1;
  for (; total < buffers; ++step) {
    const int ending = 1 + static_cast<int>(rng.uniform(std::min<std::size_t>(3, live.size())));
    const auto first = static_cast<std::ptrdiff_t>(rng.uniform(live.size() - ending + 1));
    const std::int64_t begin = live[first].begin;
    const std::int64_t end = live[first + ending - 1].end;
    for (std::ptrdiff_t i = first; i < first + ending; ++i)
      close(live[i], step);
    const int most = static_cast<int>(std::min<std::int64_t>({3, buffers - total, end - begin}));
    const int pieces = 1 + static_cast<int>(rng.uniform(most));
    std::vector<Segment> fresh = cut(begin, end, pieces, step, rng);
    live.erase(live.begin() + first, live.begin() + first + ending);
    live.insert(live.begin() + first, fresh.begin(), fresh.end());
    total += pieces;
  }
  for (const Segment& s : live)
    close(s, step);
  // A random order, so that the position of a buffer says nothing about where it was cut.
  const std::vector<std::size_t> order = shuffled_positions(made.size(), rng);
  ZeroSlackProblem out;
  out.problem.capacity = capacity;
  for (std::size_t k = 0; k < order.size(); ++k) {
    out.problem.buffers.push_back(made[order[k]]);
    out.problem.buffers.back().id = std::to_string(k);
    out.offsets.push_back(offsets[order[k]]);
  }
  return out;
}

ZeroSlackProblem generate_with_spare_bytes(int buffers, std::int64_t capacity, std::uint64_t seed,
                                           int spare_percent) {
  if (spare_percent < 0 || spare_percent > 100)
    throw std::invalid_argument("generate_with_spare_bytes: spare_percent must be in [0, 100]");
  if (buffers < 1) throw std::invalid_argument("generate_with_spare_bytes: buffers must be >= 1");
  const int removed =
      static_cast<int>((static_cast<std::int64_t>(buffers) * spare_percent + 99) / 100);
  ZeroSlackProblem cut = generate_zero_slack(buffers + removed, capacity, seed);
  if (removed == 0) return cut;
  // The ids are a random order already: which buffers go is a second seeded draw.
  Rng rng(derive_seed(seed, {0x5370617265ULL}));  // "Spare"
  const std::vector<std::size_t> order = shuffled_positions(cut.problem.buffers.size(), rng);
  std::vector<std::size_t> kept(order.begin() + removed, order.end());
  std::sort(kept.begin(), kept.end());
  std::vector<std::size_t> taken(order.begin(), order.begin() + removed);
  std::sort(taken.begin(), taken.end());
  ZeroSlackProblem out;
  out.problem.capacity = capacity;
  for (const std::size_t k : taken) {
    out.removed.push_back(cut.problem.buffers[k]);
    out.removed.back().id = "removed " + std::to_string(out.removed_offsets.size());
    out.removed_offsets.push_back(cut.offsets[k]);
  }
  for (const std::size_t k : kept) {
    out.problem.buffers.push_back(cut.problem.buffers[k]);
    out.problem.buffers.back().id = std::to_string(out.offsets.size());
    out.offsets.push_back(cut.offsets[k]);
  }
  return out;
}

}  // namespace memplace::allocation
