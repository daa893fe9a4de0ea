// Spare bytes as phantom buffers: a problem whose memory has spare bytes becomes a full one.
//
// The searches are fast on full memories — where every section's bytes fill it exactly, the
// offsets from subset sums (feasible_offsets.hpp) leave each buffer a few dozen places — and slow
// where a few percent of the bytes are spare, since a buffer may then sit anywhere within the
// spare bytes above a subset sum (docs/allocation.md, "Phantom holes"). The free space of any
// packing is a set of rectangles, each a gap of fixed bytes over a run of time sections (cut where
// a free gap starts or ends), whose bytes add up in every section to the section's spare bytes.
// Guessing those rectangles as buffers ("holes") leaves a full problem whose packings, the holes
// dropped, are packings of the original.
//
// HoleDecompositions enumerates such guesses. Walking the section cuts in time order with the
// holes open so far, a cut where the spare bytes change ends a subset of the open holes, or part
// of one open hole (as if two holes had started together and one ends here), and starts at most
// one new hole with the bytes that are then missing. The first decomposition takes at every cut
// the choice that ends the fewest bytes that still make the change — under `whole_first` a subset
// of whole holes before any split, under `split_first` a split before a subset that ends more
// bytes — then the fewest holes, then the oldest; the others deviate from that rule at some cuts,
// those with fewer deviations first (limited discrepancy search). A cut where the spare bytes do
// not change keeps the open holes. Not every free space is reachable (a hole ending and another of
// equal bytes starting where the spare bytes do not change), so a full problem that cannot be
// packed proves nothing about the original: the enumeration only ever finds packings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

// Which choice a cut prefers where no subset of whole open holes ends exactly the bytes the spare
// bytes fall by: end more and start a new hole (`whole_first`), or split an open hole
// (`split_first`). `split_then_cut` makes split_first's choices, then cuts every hole in time where
// the spare bytes change: a hole may then move at each change, so one guess holds where a drop is
// either reading and where a rise is also a hole ending — a looser full problem, but a right one
// more often.
enum class HoleRule { whole_first, split_first, split_then_cut };

// What a cut may end: a subset of whole open holes or part of one (`plain`), or also one whole
// hole together with part of another (`mixed`: where two holes that started together are not
// side by side, one of them can end with a younger hole — held-out misses 3651, 4019 and 4112 of
// docs/allocation.md have that shape, which no plain option reaches).
enum class HoleEnds { plain, mixed };

// The rule's name in `memplace pack`'s output: "whole-first", "split-first", "split-then-cut".
std::string name_of(HoleRule rule);

class HoleDecompositions {
 public:
  // The problem's spare bytes per section (capacity - live bytes; none if the peak is above the
  // capacity or the alignment is not 1, where holes of exact bytes do not fill the gaps). Each cut
  // offers at most `max_options` alternatives (at least 1, else std::invalid_argument), best
  // first: the rest are never tried. With HoleEnds::mixed, a cut where the spare bytes fall also
  // offers to end one whole hole together with part of another, exactly the fall: up to
  // `max_options` of those, listed after the plain ones.
  HoleDecompositions(const Problem& problem, HoleRule rule, std::size_t max_options = kMaxOptions,
                     HoleEnds ends = HoleEnds::plain);

  // Whether the problem has spare bytes to decompose.
  bool applicable() const { return applicable_; }

  // The holes of the next decomposition, as buffers (ids "hole <k>"); nullopt once every
  // decomposition with up to kMaxDiscrepancies deviations has been given.
  std::optional<std::vector<Buffer>> next();

  // The decomposition that takes option `choices[s]` at each cut s that offers a choice (the
  // first where `choices` is shorter, the last where the index is past the options); when given,
  // `options[s]` is set to the count of options cut s offered (1 where the spare bytes kept).
  std::vector<Buffer> walk(std::span<const int> choices, std::vector<int>* options = nullptr) const;
  // Section s of the decomposition is [cuts()[s], cuts()[s + 1]).
  const std::vector<std::int64_t>& cuts() const { return cuts_; }

  static constexpr int kMaxDiscrepancies = 3;
  // The alternatives a cut offers by default (the enumeration's and the guided sweeps').
  static constexpr std::size_t kMaxOptions = 6;

 private:
  struct Hole {
    std::int64_t lower = 0;
    std::int64_t size = 0;
  };
  // A way to make the change at a cut: which open holes end (all of them, or part of one).
  struct Option {
    bool partial = false;  // ends part of one hole (`subset`'s), as if two had started together
    std::int64_t ended = 0;
    std::size_t count = 0;
    std::int64_t age = 0;  // the sum of the ended holes' lower ends: smaller is older
    std::uint32_t subset = 0;
    // HoleEnds::mixed: the hole of `subset` that ends only in part (the other ends whole); -1 for
    // the plain options.
    int split = -1;
  };
  // The options at the cut starting `section`, best first (at most max_options_ plain ones, then
  // at most as many mixed ones); empty where the spare bytes keep the open holes.
  std::vector<Option> options_at(std::size_t section, const std::vector<Hole>& open) const;
  // Takes `option` at the cut starting `section`: the holes it ends join `closed`, and a hole with
  // the bytes then missing opens.
  void take(std::size_t section, const Option& option, std::vector<Hole>& open,
            std::vector<Buffer>& closed) const;
  // The holes of a decomposition once every cut is taken, named (and cut, under split_then_cut).
  std::vector<Buffer> finished(const std::vector<Hole>& open, std::vector<Buffer> closed) const;
  // Every decomposition with exactly `discrepancies` deviations, in order.
  void enumerate(std::size_t cut, std::vector<Hole>& open, std::vector<Buffer>& closed,
                 int discrepancies);

  // Every hole cut in time where the spare bytes change (split_then_cut).
  std::vector<Buffer> cut_at_changes(std::vector<Buffer> holes) const;

  HoleRule rule_;
  std::size_t max_options_;
  HoleEnds ends_;
  bool applicable_ = false;
  std::vector<std::int64_t> cuts_;   // section s is [cuts_[s], cuts_[s + 1])
  std::vector<std::int64_t> spare_;  // per section
  int discrepancies_ = 0;            // of the batch being handed out
  std::vector<std::vector<Buffer>> batch_;
  std::size_t handed_ = 0;
};

// The problem with `holes` added as buffers.
Problem with_holes(const Problem& problem, const std::vector<Buffer>& holes);

}  // namespace memplace::allocation
