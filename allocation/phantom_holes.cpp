#include "allocation/phantom_holes.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace memplace::allocation {
namespace {

// A batch of decompositions beyond this is cut short: the enumeration's later leaves would wait
// behind hours of searches anyway.
constexpr std::size_t kMaxBatch = 20'000;
// Subsets of more open holes than this are not enumerated in full: only those of one or two.
constexpr std::size_t kMaxOpenForSubsets = 10;

}  // namespace

std::string name_of(HoleRule rule) {
  switch (rule) {
    case HoleRule::whole_first:
      return "whole-first";
    case HoleRule::split_first:
      return "split-first";
    case HoleRule::split_then_cut:
      return "split-then-cut";
  }
  return "";
}

HoleDecompositions::HoleDecompositions(const Problem& problem, HoleRule rule,
                                       std::size_t max_options, HoleEnds ends)
    : rule_(rule), max_options_(max_options), ends_(ends) {
  if (max_options == 0) throw std::invalid_argument("HoleDecompositions: max_options is 0");
  if (problem.alignment != 1 || problem.buffers.empty()) return;
  const Sections sections = time_sections(problem.buffers);
  std::vector<std::int64_t> live(static_cast<std::size_t>(sections.count()), 0);
  for (std::size_t i = 0; i < problem.buffers.size(); ++i)
    for (int s = sections.first[i]; s < sections.last[i]; ++s)
      live[static_cast<std::size_t>(s)] += problem.buffers[i].size;
  bool spare = false;
  for (const std::int64_t bytes : live) {
    if (bytes > problem.capacity) return;
    spare_.push_back(problem.capacity - bytes);
    spare = spare || spare_.back() > 0;
  }
  cuts_ = sections.cuts;
  applicable_ = spare;
}

std::vector<HoleDecompositions::Option> HoleDecompositions::options_at(
    std::size_t section, const std::vector<Hole>& open) const {
  const std::int64_t target = spare_[section];
  std::int64_t open_bytes = 0;
  for (const Hole& h : open)
    open_bytes += h.size;
  if (section > 0 && target == open_bytes) return {};
  // The subsets of open holes to end here, best first: the fewest bytes ended that still make the
  // change, then the fewest holes, then the oldest.
  std::vector<Option> options;
  const std::size_t n = open.size();
  const auto consider = [&](std::uint32_t subset) {
    Option o{false, 0, 0, 0, subset};
    for (std::size_t k = 0; k < n; ++k)
      if (subset >> k & 1U) o.ended += open[k].size, o.age += open[k].lower, ++o.count;
    if (open_bytes - o.ended <= target) options.push_back(o);
  };
  if (n <= kMaxOpenForSubsets) {
    for (std::uint32_t subset = 0; subset < (1U << n); ++subset)
      consider(subset);
  } else {
    consider(0);
    for (std::size_t a = 0; a < kMaxOpenForSubsets; ++a) {
      consider(1U << a);
      for (std::size_t b = a + 1; b < kMaxOpenForSubsets; ++b)
        consider(1U << a | 1U << b);
    }
  }
  // Two holes that started together, one of them ending here: part of an open hole ends.
  const std::int64_t need = open_bytes - target;
  if (need > 0)
    for (std::size_t k = 0; k < n && k < 32; ++k)
      if (open[k].size > need) options.push_back({true, need, 1, open[k].lower, 1U << k});
  // One whole hole and part of another, ending exactly the fall (listed after the plain options).
  if (need > 0 && ends_ == HoleEnds::mixed)
    for (std::size_t whole = 0; whole < n && whole < 32; ++whole)
      for (std::size_t part = 0; part < n && part < 32; ++part)
        if (part != whole && open[whole].size < need && open[part].size > need - open[whole].size)
          options.push_back({true, need, 2, open[whole].lower + open[part].lower,
                             1U << whole | 1U << part, static_cast<int>(part)});
  const bool split_first = rule_ != HoleRule::whole_first;
  std::sort(options.begin(), options.end(), [&](const Option& x, const Option& y) {
    const bool x_mixed = x.split >= 0, y_mixed = y.split >= 0;
    if (split_first)
      return std::tie(x_mixed, x.ended, x.partial, x.count, x.age, x.subset, x.split) <
             std::tie(y_mixed, y.ended, y.partial, y.count, y.age, y.subset, y.split);
    return std::tie(x_mixed, x.partial, x.ended, x.count, x.age, x.subset, x.split) <
           std::tie(y_mixed, y.partial, y.ended, y.count, y.age, y.subset, y.split);
  });
  // Up to max_options_ plain options, then up to as many mixed ones (sorted after them).
  const auto plain = static_cast<std::size_t>(
      std::count_if(options.begin(), options.end(), [](const Option& o) { return o.split < 0; }));
  if (plain > max_options_)
    options.erase(options.begin() + static_cast<std::ptrdiff_t>(max_options_),
                  options.begin() + static_cast<std::ptrdiff_t>(plain));
  if (options.size() > 2 * max_options_) options.resize(2 * max_options_);
  return options;
}

void HoleDecompositions::take(std::size_t section, const Option& option, std::vector<Hole>& open,
                              std::vector<Buffer>& closed) const {
  std::int64_t open_bytes = 0;
  std::vector<Hole> kept;
  // The bytes of the hole that ends in part: all the option ends, less the holes ending whole.
  std::int64_t part_ended = option.ended;
  for (std::size_t k = 0; k < open.size(); ++k)
    if (option.split >= 0 && (option.subset >> k & 1U) && static_cast<int>(k) != option.split)
      part_ended -= open[k].size;
  for (std::size_t k = 0; k < open.size(); ++k) {
    open_bytes += open[k].size;
    const bool in_part = option.split >= 0 ? static_cast<int>(k) == option.split : option.partial;
    if (!(option.subset >> k & 1U)) {
      kept.push_back(open[k]);
    } else if (in_part) {
      closed.push_back({"", open[k].lower, cuts_[section], part_ended});
      kept.push_back({open[k].lower, open[k].size - part_ended});
    } else {
      closed.push_back({"", open[k].lower, cuts_[section], open[k].size});
    }
  }
  const std::int64_t missing = spare_[section] - (open_bytes - option.ended);
  if (missing > 0) kept.push_back({cuts_[section], missing});
  open = std::move(kept);
}

std::vector<Buffer> HoleDecompositions::finished(const std::vector<Hole>& open,
                                                 std::vector<Buffer> closed) const {
  for (const Hole& h : open)
    closed.push_back({"", h.lower, cuts_.back(), h.size});
  if (rule_ == HoleRule::split_then_cut) closed = cut_at_changes(std::move(closed));
  for (std::size_t k = 0; k < closed.size(); ++k)
    closed[k].id = "hole " + std::to_string(k);
  return closed;
}

void HoleDecompositions::enumerate(std::size_t section, std::vector<Hole>& open,
                                   std::vector<Buffer>& closed, int discrepancies) {
  if (batch_.size() >= kMaxBatch) return;
  if (section == spare_.size()) {
    if (discrepancies == 0) batch_.push_back(finished(open, closed));  // exactly the deviations
    return;
  }
  const std::vector<Option> options = options_at(section, open);
  if (options.empty()) {
    enumerate(section + 1, open, closed, discrepancies);
    return;
  }
  for (std::size_t j = 0; j < options.size(); ++j) {
    const int left = discrepancies - (j == 0 ? 0 : 1);
    if (left < 0) break;
    std::vector<Hole> kept = open;
    const std::size_t closed_before = closed.size();
    take(section, options[j], kept, closed);
    enumerate(section + 1, kept, closed, left);
    closed.resize(closed_before);
  }
}

std::vector<Buffer> HoleDecompositions::walk(std::span<const int> choices,
                                             std::vector<int>* options) const {
  if (options) options->assign(spare_.size(), 1);
  std::vector<Hole> open;
  std::vector<Buffer> closed;
  for (std::size_t section = 0; section < spare_.size(); ++section) {
    const std::vector<Option> here = options_at(section, open);
    if (here.empty()) continue;
    if (options) (*options)[section] = static_cast<int>(here.size());
    const int choice = section < choices.size() ? choices[section] : 0;
    take(section, here[std::min<std::size_t>(std::max(choice, 0), here.size() - 1)], open, closed);
  }
  return finished(open, closed);
}

std::optional<std::vector<Buffer>> HoleDecompositions::next() {
  while (applicable_ && handed_ == batch_.size()) {
    if (discrepancies_ > kMaxDiscrepancies) return std::nullopt;
    batch_.clear();
    handed_ = 0;
    std::vector<Hole> open;
    std::vector<Buffer> closed;
    enumerate(0, open, closed, discrepancies_);
    ++discrepancies_;
  }
  if (!applicable_) return std::nullopt;
  return batch_[handed_++];
}

std::vector<Buffer> HoleDecompositions::cut_at_changes(std::vector<Buffer> holes) const {
  std::vector<Buffer> cut;
  for (const Buffer& h : holes) {
    std::int64_t lower = h.lower;
    for (std::size_t s = 1; s < spare_.size(); ++s)
      if (spare_[s] != spare_[s - 1] && cuts_[s] > lower && cuts_[s] < h.upper) {
        cut.push_back({"", lower, cuts_[s], h.size});
        lower = cuts_[s];
      }
    cut.push_back({"", lower, h.upper, h.size});
  }
  return cut;
}

Problem with_holes(const Problem& problem, const std::vector<Buffer>& holes) {
  Problem full = problem;
  full.buffers.insert(full.buffers.end(), holes.begin(), holes.end());
  return full;
}

}  // namespace memplace::allocation
