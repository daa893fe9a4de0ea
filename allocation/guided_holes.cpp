#include "allocation/guided_holes.hpp"

#include <algorithm>
#include <chrono>

#include "allocation/feasible_offsets.hpp"
#include "allocation/skyline_search.hpp"

namespace memplace::allocation {

Problem time_window(const Problem& problem, std::int64_t lower, std::int64_t upper) {
  Problem window{{}, problem.capacity, problem.alignment};
  for (const Buffer& b : problem.buffers)
    if (b.lower < upper && b.upper > lower)
      window.buffers.push_back({b.id, std::max(b.lower, lower), std::min(b.upper, upper), b.size});
  return window;
}

GuidedGuess guided_holes(const Problem& problem, HoleRule rule, GuideWindow window,
                         const SearchLimits& limits, const SearchProgressCallback& progress) {
  GuidedGuess guess;
  const HoleDecompositions decompositions(problem, rule);
  if (!decompositions.applicable()) return guess;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const std::vector<std::int64_t>& cuts = decompositions.cuts();
  const int sections = static_cast<int>(cuts.size()) - 1;
  std::vector<int> choices(static_cast<std::size_t>(sections), 0);
  // The options each cut offers depend on the choices before it: walked again when one changes.
  std::vector<int> options;
  decompositions.walk(choices, &options);
  OffsetSetMemo offsets;  // consecutive windows share all but a section or two
  for (int s = 0; s < sections; ++s) {
    if (options[s] < 2) continue;
    const std::int64_t lower = cuts[std::max(0, s - window.sections)];
    const std::int64_t upper = cuts[std::min(sections, s + window.sections)];
    int kept = 0;  // the rule's own option when no window packs
    for (int option = 0; option < options[s]; ++option) {
      const double seconds_left = limits.seconds - elapsed();
      std::uint64_t budget = window.placements;
      if (limits.placements > 0) {
        if (guess.placements >= limits.placements) return guess;
        budget = std::min(budget, limits.placements - guess.placements);
      }
      if (seconds_left <= 0) return guess;
      choices[s] = option;
      const Problem around =
          time_window(with_holes(problem, decompositions.walk(choices)), lower, upper);
      const ExactSearchResult r = skyline_search(
          around, {seconds_left, budget}, RankOrder::busiest_section, {}, 0, offsets(around));
      guess.placements += r.nodes;
      if (r.outcome == SearchOutcome::limit && r.nodes < budget) return guess;  // out of time
      if (r.outcome == SearchOutcome::packed) {
        kept = option;
        break;
      }
    }
    choices[s] = kept;
    if (kept != 0) decompositions.walk(choices, &options);
    if (progress) progress({guess.placements, s + 1, sections, elapsed(), {}});
  }
  guess.holes = decompositions.walk(choices);
  guess.complete = true;
  return guess;
}

}  // namespace memplace::allocation
