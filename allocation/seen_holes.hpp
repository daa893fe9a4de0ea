// The guesses of phantom holes a portfolio has already searched.
//
// Different rules and sweeps often make the same guess: a guided sweep that keeps every cut's
// first option gives back its rule's first guess, and split-first and whole-first agree wherever
// no cut needs a split (on spare-bytes dev seeds of 450 buffers, up to five of the eleven guesses
// that `memplace pack` runs again every round were repeats). The same holes make the same full
// problem, whose search is the same, so a repeat is not searched again.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

class SeenHoles {
 public:
  // Whether no guess with these holes (as rectangles, in any order) was seen before on the same
  // side of time (`reversed`: made on the problem with time reversed); it is seen from now on.
  bool insert(std::span<const Buffer> holes, bool reversed);

 private:
  using Rectangles = std::vector<std::array<std::int64_t, 3>>;  // lower, upper, bytes; sorted
  std::set<Rectangles> seen_[2];
};

}  // namespace memplace::allocation
