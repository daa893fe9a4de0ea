// Where the guesses of phantom holes miss a generated problem with spare bytes: for each rule
// (whole-first and split-first, with the mixed ends of the refutation-directed guesses), forward
// and with time reversed, how many deviations from the rule's first options reach the free space
// of the packing the problem was cut from (allocation/hole_reach.hpp), or the first cut none
// reaches and what is open there; and how fast the skyline search packs the problem made full by
// that free space, and by each walk that reaches it. The analyses of docs/allocation.md ("What
// the misses lack") are its output.
//
//   build/default/allocation/memplace_hole_walk BUFFERS SEED [SPARE_PERCENT] [OPTIONS]
//
// SPARE_PERCENT (default 5) as `memplace pack --generate N --spare P --seed S` (capacity 1048576);
// OPTIONS (default 6): the most options of each kind a cut offers, as HoleDecompositions takes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "allocation/feasible_offsets.hpp"
#include "allocation/hole_reach.hpp"
#include "allocation/skyline_search.hpp"
#include "allocation/zero_slack_generator.hpp"

namespace {

using namespace memplace::allocation;

constexpr std::int64_t kCapacity = 1048576;
constexpr std::uint64_t kSearchPlacements = 2'000'000;

// A whole number in [least, most] from argument `text`, or exit 2 naming it.
std::int64_t parse(const char* name, const char* text, std::int64_t least, std::int64_t most) {
  try {
    std::size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used == std::string(text).size() && value >= least && value <= most) return value;
  } catch (const std::exception&) {
  }
  std::fprintf(stderr, "memplace_hole_walk: %s '%s' is not a whole number in [%lld, %lld]\n", name,
               text, static_cast<long long>(least), static_cast<long long>(most));
  std::exit(2);
}

// "packed in P placements" or why not, for `problem` made full by `holes`.
std::string search_full(const Problem& problem, const std::vector<Buffer>& holes) {
  const Problem full = with_holes(problem, holes);
  const ExactSearchResult r = skyline_search(
      full, {3600, kSearchPlacements}, RankOrder::busiest_section, {}, 0, feasible_offsets(full));
  const std::string placements = std::to_string(r.nodes) + " placements";
  switch (r.outcome) {
    case SearchOutcome::packed:
      return "packed in " + placements;
    case SearchOutcome::infeasible:
      return "no packing (" + placements + ")";
    case SearchOutcome::limit:
      break;
  }
  return "undecided at " + placements;
}

// "bytes@step ..." of the rectangles live at `step`, by the step each opened at.
std::string by_opening(const std::vector<Buffer>& rectangles, std::int64_t step) {
  std::string out;
  for (const auto& [opened, size] : bytes_by_opening(rectangles, step))
    out += " " + std::to_string(size) + "@" + std::to_string(opened);
  return out;
}

void walk(const Problem& problem, const std::vector<Buffer>& free_space, HoleRule rule,
          std::size_t options, const char* direction) {
  const HoleDecompositions decompositions(problem, rule, options, HoleEnds::mixed);
  const HoleReach reach = reach_free_space(decompositions, free_space);
  const std::vector<std::int64_t>& cuts = decompositions.cuts();
  std::printf("%s, %s:", name_of(rule).c_str(), direction);
  for (std::size_t s = 0; s < reach.choices.size(); ++s)
    if (reach.choices[s] != 0)
      std::printf(" step %lld option %d of %d,", static_cast<long long>(cuts[s]), reach.choices[s],
                  reach.offered[s]);
  if (reach.stuck_at < 0) {
    std::printf(" reached with %d deviations; its holes: %s\n", reach.deviations,
                search_full(problem, decompositions.walk(reach.choices)).c_str());
    return;
  }
  // Never the first section: with no hole open yet, its cut offers one option.
  const auto s = static_cast<std::size_t>(reach.stuck_at);
  std::printf(" no option of %d at step %lld\n", reach.offered[s], static_cast<long long>(cuts[s]));
  std::printf("  free space there:%s\n", by_opening(free_space, cuts[s]).c_str());
  std::printf(
      "  holes open before:%s\n",
      by_opening(decompositions.walk(std::span<const int>(reach.choices.data(), s)), cuts[s - 1])
          .c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: memplace_hole_walk BUFFERS SEED [SPARE_PERCENT] [OPTIONS]\n");
    return 2;
  }
  const auto buffers = static_cast<int>(parse("BUFFERS", argv[1], 1, 40'000));
  const auto seed = static_cast<std::uint64_t>(parse("SEED", argv[2], 0, INT64_MAX));
  const auto spare = static_cast<int>(argc > 3 ? parse("SPARE_PERCENT", argv[3], 1, 100) : 5);
  const auto options = static_cast<std::size_t>(argc > 4 ? parse("OPTIONS", argv[4], 1, 64) : 6);
  const ZeroSlackProblem made = generate_with_spare_bytes(buffers, kCapacity, seed, spare);
  Problem problem = made.problem;
  std::vector<Buffer> free_space = made.removed;
  std::printf(
      "%d buffers, seed %llu, %d %% more cut and removed: the free space is %zu "
      "rectangles; with them as holes: %s\n",
      buffers, static_cast<unsigned long long>(seed), spare, free_space.size(),
      search_full(problem, free_space).c_str());
  for (const char* direction : {"forward", "time reversed"}) {
    for (const HoleRule rule : {HoleRule::whole_first, HoleRule::split_first})
      walk(problem, free_space, rule, options, direction);
    // The removed buffers reversed with the problem: the time-reversed problem's free space.
    Problem both = with_holes(problem, free_space);
    both = time_reversed(both);
    problem.buffers.assign(
        both.buffers.begin(),
        both.buffers.begin() + static_cast<std::ptrdiff_t>(problem.buffers.size()));
    free_space.assign(both.buffers.begin() + static_cast<std::ptrdiff_t>(problem.buffers.size()),
                      both.buffers.end());
  }
  return 0;
}
