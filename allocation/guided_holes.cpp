#include "allocation/guided_holes.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "allocation/skyline_search.hpp"

namespace memplace::allocation {

Problem time_window(const Problem& problem, std::int64_t lower, std::int64_t upper) {
  Problem window{{}, problem.capacity, problem.alignment};
  for (const Buffer& b : problem.buffers)
    if (b.lower < upper && b.upper > lower)
      window.buffers.push_back({b.id, std::max(b.lower, lower), std::min(b.upper, upper), b.size});
  return window;
}

namespace {

// A sweep's windows: each the problem made full by the holes chosen, cut to a time window, and
// searched within `budget` placements. Their searches together keep to the sweep's limits, so a
// sweep under a placement limit decides the same way on every machine. The searches skip the
// offsets from subset sums (feasible_offsets.hpp): a window search takes a few thousand
// placements, and making its sets took two thirds of the repaired sweeps' time on spare-bytes
// seed 4019 of 450 buffers (docs/allocation.md, "Sweeps without offset sets").
class WindowSearches {
 public:
  WindowSearches(const Problem& problem, std::uint64_t budget, const SearchLimits& limits)
      : problem_(problem), budget_(budget), limits_(limits) {}

  // Whether the window [lower, upper) packs with `holes`; nullopt once the limits are spent.
  std::optional<bool> packs(const std::vector<Buffer>& holes, std::int64_t lower,
                            std::int64_t upper) {
    const double seconds_left = limits_.seconds - elapsed();
    std::uint64_t budget = budget_;
    if (limits_.placements > 0) {
      if (placements_ >= limits_.placements) return std::nullopt;
      budget = std::min(budget, limits_.placements - placements_);
    }
    if (seconds_left <= 0) return std::nullopt;
    const Problem around = time_window(with_holes(problem_, holes), lower, upper);
    const ExactSearchResult r =
        skyline_search(around, {seconds_left, budget}, RankOrder::busiest_section, {}, 0, {});
    placements_ += r.nodes;
    if (r.outcome == SearchOutcome::limit && r.nodes < budget) return std::nullopt;  // out of time
    return r.outcome == SearchOutcome::packed;
  }

  std::uint64_t placements() const { return placements_; }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  const Problem& problem_;
  std::uint64_t budget_;
  SearchLimits limits_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::uint64_t placements_ = 0;
};

// A sweep's choices under a rule: the option taken at each cut, the options each cut offers (they
// depend on the choices before it, so they are walked again at every change) and the holes made.
class Choices {
 public:
  Choices(const Problem& problem, HoleRule rule, std::size_t max_options)
      : decompositions_(problem, rule, max_options) {
    if (!decompositions_.applicable()) return;
    taken_.assign(decompositions_.cuts().size() - 1, 0);
    holes_ = decompositions_.walk(taken_, &options_);
  }
  bool applicable() const { return decompositions_.applicable(); }
  // Section s is [cuts()[s], cuts()[s + 1]).
  const std::vector<std::int64_t>& cuts() const { return decompositions_.cuts(); }
  int sections() const { return static_cast<int>(taken_.size()); }

  int taken(int s) const { return taken_[s]; }
  int options(int s) const { return options_[s]; }
  const std::vector<Buffer>& holes() const { return holes_; }
  const std::vector<int>& all_taken() const { return taken_; }
  const std::vector<int>& all_options() const { return options_; }

  void take(int s, int option) {
    taken_[s] = option;
    holes_ = decompositions_.walk(taken_, &options_);
  }
  void take_all(const std::vector<int>& taken) {
    taken_ = taken;
    holes_ = decompositions_.walk(taken_, &options_);
  }

 private:
  HoleDecompositions decompositions_;
  std::vector<int> taken_, options_;
  std::vector<Buffer> holes_;
};

}  // namespace

GuidedGuess guided_holes(const Problem& problem, HoleRule rule, GuideWindow window,
                         const SearchLimits& limits, const SearchProgressCallback& progress,
                         std::span<const int> decided) {
  GuidedGuess guess;
  Choices choices(problem, rule, window.options);
  if (!choices.applicable()) return guess;
  WindowSearches windows(problem, window.placements, limits);
  const std::vector<std::int64_t>& cuts = choices.cuts();
  const int sections = choices.sections();
  if (decided.size() > static_cast<std::size_t>(sections))
    throw std::invalid_argument("guided_holes: " + std::to_string(decided.size()) +
                                " options decided, but the problem has " +
                                std::to_string(sections) + " cuts");
  if (!decided.empty()) {
    std::vector<int> start(sections, 0);  // the rule's option after them, as the sweep has it
    std::copy(decided.begin(), decided.end(), start.begin());
    choices.take_all(start);
  }
  for (int s = static_cast<int>(decided.size()); s < sections; ++s) {
    if (choices.options(s) < 2) continue;
    const std::int64_t lower = cuts[std::max(0, s - window.sections)];
    const std::int64_t upper = cuts[std::min(sections, s + window.sections)];
    int kept = 0;  // the rule's own option when no window packs
    bool packed_any = false;
    for (int option = 0; option < choices.options(s) && !packed_any; ++option) {
      choices.take(s, option);
      const std::optional<bool> packed = windows.packs(choices.holes(), lower, upper);
      guess.placements = windows.placements();
      if (!packed) return guess;
      if (*packed) {
        kept = option;
        packed_any = true;
      }
    }
    if (!packed_any && choices.options(s) == static_cast<int>(window.options) &&
        guess.short_of_options++ == 0) {
      const std::vector<int>& taken = choices.all_taken();
      guess.decided_before_short.assign(taken.begin(), taken.begin() + s);
    }
    if (choices.taken(s) != kept) choices.take(s, kept);
    if (progress) progress({guess.placements, s + 1, sections, windows.elapsed(), {}});
  }
  guess.holes = choices.holes();
  guess.complete = true;
  return guess;
}

GuidedGuess repaired_holes(const Problem& problem, HoleRule rule, GuideWindow window,
                           const SearchLimits& limits, const SearchProgressCallback& progress) {
  GuidedGuess guess;
  Choices choices(problem, rule, window.options);
  if (!choices.applicable()) return guess;
  WindowSearches windows(problem, window.placements, limits);
  const int sections = choices.sections();
  // Cut s's window reaches back `window.sections` and forward to the next cut that offers a
  // choice: every hole in it is fixed by the choices up to s.
  const auto packs = [&](int s) {
    int next = s + 1;
    while (next < sections && choices.options(next) < 2)
      ++next;
    const std::vector<std::int64_t>& cuts = choices.cuts();
    return windows.packs(choices.holes(), cuts[std::max(0, s - window.sections)], cuts[next]);
  };
  int furthest = 0;  // sections passed, for the progress
  // The sweep and its repairs try each cut's first options; the rest of `window.options` only at a
  // cut no repair mends. Trying them all everywhere made sweeps up to five times slower and lost a
  // problem the first options pack (docs/allocation.md, "Repaired guided guesses").
  const int first_options = static_cast<int>(HoleDecompositions::kMaxOptions);
  // Decides the cuts from `first` through `last` afresh, each to the first option whose window
  // packs. Ends at the first cut where none does (its rule's option taken there), or passed.
  constexpr int kPassed = -1, kOutOfLimits = -2;
  const auto sweep = [&](int first, int last) {
    for (int s = first; s <= last; ++s) {
      if (choices.options(s) < 2) continue;
      bool packed = false;
      for (int option = 0; option < std::min(choices.options(s), first_options) && !packed;
           ++option) {
        choices.take(s, option);
        const std::optional<bool> p = packs(s);
        if (!p) return kOutOfLimits;
        packed = *p;
      }
      if (!packed) {
        choices.take(s, 0);
        return s;
      }
      if (progress && s + 1 > furthest) {
        furthest = s + 1;
        progress({windows.placements(), furthest, sections, windows.elapsed(), {}});
      }
    }
    return kPassed;
  };
  // At a cut where no option's window packs, some choice in its window is wrong: each other
  // option of one earlier cut in the window, nearest first, with the cuts between decided again,
  // until the failed cut's window packs; else the failed cut's later options. Whether one did (the
  // choices are then its), or the limits ran out.
  const auto repair = [&](int failed) {
    const std::vector<int> before = choices.all_taken(), options_before = choices.all_options();
    for (int c = failed - 1; c >= std::max(0, failed - window.sections); --c)
      for (int option = 0; option < std::min(options_before[c], first_options); ++option) {
        if (option == before[c]) continue;
        std::vector<int> tried = before;
        tried[c] = option;
        choices.take_all(tried);
        const std::optional<bool> p = packs(c);
        if (!p) return kOutOfLimits;
        const int end = *p ? sweep(c + 1, failed) : failed;
        if (end == kPassed || end == kOutOfLimits) return end;
      }
    // No repair mends it: the failed cut's own later options, as a last resort.
    choices.take_all(before);
    for (int option = first_options; option < options_before[failed]; ++option) {
      choices.take(failed, option);
      const std::optional<bool> p = packs(failed);
      if (!p) return kOutOfLimits;
      if (*p) return kPassed;
    }
    choices.take_all(before);
    return failed;
  };
  for (int from = 0;;) {
    const int failed = sweep(from, sections - 1);
    if (failed == kPassed) break;
    const int end = failed == kOutOfLimits ? kOutOfLimits : repair(failed);
    guess.repairs += end == kPassed;
    guess.unmended += end != kPassed && end != kOutOfLimits;  // repair() gave the failed cut back
    if (end == kOutOfLimits || guess.unmended > window.most_unmended) {
      guess.placements = windows.placements();
      return guess;  // incomplete
    }
    from = failed + 1;  // repaired or not, the sweep goes on past it
  }
  guess.placements = windows.placements();
  guess.holes = choices.holes();
  guess.complete = true;
  return guess;
}

}  // namespace memplace::allocation
