#include "allocation/hole_reach.hpp"

namespace memplace::allocation {

std::map<std::int64_t, std::int64_t> bytes_by_opening(std::span<const Buffer> rectangles,
                                                      std::int64_t step) {
  std::map<std::int64_t, std::int64_t> bytes;
  for (const Buffer& r : rectangles)
    if (r.lower <= step && step < r.upper) bytes[r.lower] += r.size;
  return bytes;
}

HoleReach reach_free_space(const HoleDecompositions& decompositions,
                           std::span<const Buffer> free_space) {
  const std::vector<std::int64_t>& cuts = decompositions.cuts();
  HoleReach reach;
  if (cuts.size() < 2) return reach;
  const std::size_t sections = cuts.size() - 1;
  reach.choices.assign(sections, 0);
  reach.offered.assign(sections, 1);
  for (std::size_t s = 0; s < sections; ++s) {
    // The options offered here follow from the choices before: walk again with those taken.
    std::vector<int> offered;
    decompositions.walk(std::span<const int>(reach.choices.data(), s), &offered);
    reach.offered[s] = offered[s];
    if (offered[s] <= 1) continue;
    const std::map<std::int64_t, std::int64_t> wanted = bytes_by_opening(free_space, cuts[s]);
    int found = -1;
    for (int option = 0; option < offered[s] && found < 0; ++option) {
      reach.choices[s] = option;
      const std::vector<Buffer> holes =
          decompositions.walk(std::span<const int>(reach.choices.data(), s + 1));
      if (bytes_by_opening(holes, cuts[s]) == wanted) found = option;
    }
    if (found < 0) {
      reach.choices[s] = 0;
      reach.stuck_at = static_cast<int>(s);
      return reach;
    }
    reach.choices[s] = found;
    reach.deviations += found > 0;
  }
  return reach;
}

}  // namespace memplace::allocation
