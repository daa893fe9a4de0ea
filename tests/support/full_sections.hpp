// Whether phantom holes (allocation/phantom_holes.hpp) make a problem full: in every section of the
// problem's own cuts (where the holes end and start too), its buffers and the holes fill the
// capacity exactly. Shared by the phantom-hole and guided-guess tests.
#pragma once

#include <vector>

#include "allocation/problem.hpp"

namespace memplace::testing {

inline bool every_section_full(const allocation::Problem& problem,
                               const std::vector<allocation::Buffer>& holes) {
  const allocation::Sections sections = allocation::time_sections(problem.buffers);
  for (int s = 0; s < sections.count(); ++s) {
    std::int64_t live = 0;
    for (const std::vector<allocation::Buffer>* set : {&problem.buffers, &holes})
      for (const allocation::Buffer& b : *set)
        if (b.lower <= sections.cuts[s] && sections.cuts[s] < b.upper) live += b.size;
    if (live != problem.capacity) return false;
  }
  return true;
}

}  // namespace memplace::testing
