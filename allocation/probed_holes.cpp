#include "allocation/probed_holes.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "allocation/skyline_search.hpp"

namespace memplace::allocation {

ProbedNeighbours probed_neighbours(const Problem& problem, HoleRule rule, std::size_t count,
                                   std::uint64_t probe_placements, const SearchLimits& limits,
                                   SeenHoles& probed, const SearchProgressCallback& progress) {
  ProbedNeighbours result;
  const HoleDecompositions decompositions(problem, rule);
  if (!decompositions.applicable() || count == 0) {
    result.complete = true;  // nothing to probe
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  // How deep the search gets into the problem with `holes` within one probe; nullopt when the
  // limits ran out first. A probe that packs is deepest of all.
  const auto probe = [&](const std::vector<Buffer>& holes) -> std::optional<int> {
    std::uint64_t budget = probe_placements;
    if (limits.placements > 0) {
      if (result.placements >= limits.placements) return std::nullopt;
      budget = std::min(budget, limits.placements - result.placements);
    }
    const double seconds_left =
        limits.seconds -
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds_left <= 0) return std::nullopt;
    // Without the subset sums' offsets (feasible_offsets.hpp): they take up to a quarter of a
    // second per full problem (450 seed 164; a minute for its neighbours), where the probe takes
    // some 20 ms, and they ranked the same neighbours first on the dev problems where they are
    // cheap.
    const ExactSearchResult r = skyline_search(with_holes(problem, holes), {seconds_left, budget},
                                               RankOrder::busiest_section);
    result.placements += r.nodes;
    if (r.outcome == SearchOutcome::limit && r.nodes < budget) return std::nullopt;  // time
    return r.outcome == SearchOutcome::packed ? std::numeric_limits<int>::max() : r.deepest;
  };
  const int sections = static_cast<int>(decompositions.cuts().size()) - 1;
  std::vector<int> choices(static_cast<std::size_t>(sections), 0);
  std::vector<int> options;
  const std::vector<Buffer> first = decompositions.walk(choices, &options);
  probed.insert(first, false);
  const std::optional<int> first_depth = probe(first);
  if (!first_depth) return result;
  struct Neighbour {
    int depth;
    std::vector<Buffer> holes;
  };
  std::vector<Neighbour> deeper;
  int total = 0;
  for (int s = 0; s < sections; ++s)
    total += options[static_cast<std::size_t>(s)] - 1;
  int done = 0;
  for (int s = 0; s < sections; ++s)
    for (int option = 1; option < options[static_cast<std::size_t>(s)]; ++option) {
      choices[static_cast<std::size_t>(s)] = option;
      std::vector<Buffer> holes = decompositions.walk(choices);
      choices[static_cast<std::size_t>(s)] = 0;
      ++done;
      if (!probed.insert(holes, false)) continue;
      const std::optional<int> depth = probe(holes);
      if (!depth) return result;
      if (*depth > *first_depth) deeper.push_back({*depth, std::move(holes)});
      if (progress)
        progress({result.placements,
                  done,
                  total,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                  {}});
    }
  std::stable_sort(deeper.begin(), deeper.end(),
                   [](const Neighbour& x, const Neighbour& y) { return x.depth > y.depth; });
  for (std::size_t k = 0; k < deeper.size() && k < count; ++k)
    result.holes.push_back(std::move(deeper[k].holes));
  result.complete = true;
  return result;
}

}  // namespace memplace::allocation
