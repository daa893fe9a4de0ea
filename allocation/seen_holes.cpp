#include "allocation/seen_holes.hpp"

#include <algorithm>

namespace memplace::allocation {

bool SeenHoles::insert(std::span<const Buffer> holes, bool reversed) {
  Rectangles key;
  key.reserve(holes.size());
  for (const Buffer& h : holes)
    key.push_back({h.lower, h.upper, h.size});
  std::sort(key.begin(), key.end());
  return seen_[reversed ? 1 : 0].insert(std::move(key)).second;
}

}  // namespace memplace::allocation
