// Guesses of the phantom holes directed by where a guess is refuted.
//
// A guess whose full problem has no packing is refuted by a prefix of it: the full problem cut to
// the steps [0, T) (time_window) is a relaxation that has no packing either, and the holes in it
// depend only on the options taken at the cuts before T. Every guess taking the same options there
// is refuted too, so a right guess deviates at one of those cuts. The earliest such T (bisected,
// each prefix searched within kPrefixPlacements) narrows the deviations worth trying to the cuts
// before it; of those, the ones whose own prefix [0, T) is no longer refuted within twice the
// placements that refuted the guess's are kept, and each is searched in turn, breadth first:
// fewest deviations first, then those whose prefix packs, then those nearest T. The checks go in
// two passes: first each within kProbePlacements; the deviations whose prefix packs then are
// searched next, ahead of that order, and the rest are checked again at their full budget after
// them (a right deviation's prefix packs in a few thousand placements, a refuted one takes tens of
// thousands). A kept guess whose search reaches kGuessPlacements undecided gives no refutation to
// direct the next: its single deviations at later cuts are probed instead, with kProbePlacements
// each (a right guess packs in a few thousand: spare-bytes seed 3715 of 450 buffers in 782, 1197
// in 745). In effect, conflict-directed backjumping over the cuts' options, with prefixes as the
// conflicts (docs/allocation.md, "Refutation-directed guesses").
//
// Once no guess waits, each of those left undecided is *extended*: a prefix that packs fast is
// the signal where the full problem is undecided. Its prefix is the one its last deviation was
// checked on, if that check was undecided (its right guess likely needs a second deviation before
// that refutation point); else its frontier, the earliest prefix past the one that packed that
// does not pack within kExtendPlacements (bisected). Each single deviation before it whose prefix
// then packs within kExtendPlacements becomes a guess. On spare-bytes seed 4112 of 450 buffers,
// that leaves one deviation of 175 each time, the right one, twice (docs/allocation.md,
// "Refutation-directed guesses"). These run only where the guesses above would have ended, so
// every packing those find is found the same way.
//
// A first guess not yet refuted (the caller's search of it undecided) is extended the same way
// from the start, from its frontier: its refutation may take longer than the minute (held-out
// miss 3774 whole-first: 11.1 million placements), while its frontier's extensions pack 3774 in
// 2.1 million. When the refutation comes (first_refuted), it directs the guesses next.
//
// Each step searches one problem within its own budget, so the guesses made and their order do
// not depend on how the work is split between calls: run() can be given its placements a round at
// a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "allocation/feasible_offsets.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/search_interface.hpp"

namespace memplace::allocation {

struct RefutedHolesStep {
  // packed: `offsets` hold a packing of the problem (the holes dropped); limit: the allowance or
  // `limits` are spent, or every guess is tried (`exhausted`).
  SearchOutcome outcome = SearchOutcome::limit;
  std::vector<std::int64_t> offsets;
  std::uint64_t placements = 0;  // this call's
  std::vector<int> choices;      // the packing guess's option at each cut (0: the rule's first)
};

class RefutedHoles {
 public:
  // Placements of a guess's search, of a prefix's in the bisection, of a probe (and of a check in
  // the first pass); and the most deviations from the rule's first guess (a probe adds one).
  // Chosen on dev seed 3715 of 450 buffers, the first pass's on 1197, 2928 and 4112
  // (docs/allocation.md, "Refutation-directed guesses").
  static constexpr std::uint64_t kGuessPlacements = 200'000;
  static constexpr std::uint64_t kPrefixPlacements = 200'000;
  static constexpr std::uint64_t kProbePlacements = 5'000;
  // Each search of an extension (a prefix's, in its bisection or with one more deviation); on seed
  // 4112 the right deviations' prefixes packed in 6,247 and 7,093.
  static constexpr std::uint64_t kExtendPlacements = 20'000;
  static constexpr int kMostDeviations = 3;

  // Starts from `rule`'s first guess, whose full problem the caller's search refuted in
  // `refuted_in` placements (it is not searched again), or, with `refuted_in` 0, has not decided:
  // then from its frontier's extensions. `offsets` (shared with the caller's other searches of the
  // problem's guesses) must outlive this, as must `problem`.
  RefutedHoles(const Problem& problem, HoleRule rule, std::uint64_t refuted_in,
               OffsetSetMemo& offsets);

  // Searches on, one step at a time, until `allowance` placements are spent (the last step may
  // overrun it by its own budget), a guess packs, `limits` run out or nothing is left to try.
  // `progress`, if given, is called after each step: `deepest` of `buffers` are then the guesses
  // searched of those known, `nodes` this call's placements.
  RefutedHolesStep run(std::uint64_t allowance, const SearchLimits& limits,
                       const SearchProgressCallback& progress = {});
  // The caller's search refuted the rule's first guess in `placements` (this was made with
  // `refuted_in` 0): its refutation directs the guesses next, once the guess under way is done.
  void first_refuted(std::uint64_t placements);
  // Made with `refuted_in` 0, and not told of the refutation since.
  bool undecided() const { return undecided_; }
  // Every guess within kMostDeviations tried.
  bool exhausted() const { return exhausted_; }
  // Guesses searched (probes not counted) and those waiting, for a progress display.
  std::uint64_t searched() const { return searched_; }
  std::size_t waiting() const { return candidates_.size() + extendable_.size(); }

 private:
  struct Deviation {
    int cut = 0;
    int option = 0;
  };
  struct Candidate {
    std::vector<int> choices;
    int first_cut = 0;  // deviations may be added from this cut on
    int deviations = 0;
    std::uint64_t refuted_in = 0;  // nonzero: its full problem is known to be refuted, in this many
    // Nonzero: its last deviation was checked on the prefix [0, prefix_end), which packed
    // (`prefix_packs`) or was left undecided.
    int prefix_end = 0;
    bool prefix_packs = false;
    // Nonempty: the candidate's second pass of checks, at their full budget, on the prefix
    // [0, prefix_end) refuted in `refuted_in` placements (its packing children go first).
    std::vector<Deviation> recheck{};
  };
  // What the candidate under way does next.
  enum class Phase { search, bisect, check, probe, frontier, extend, done };
  struct Current {
    // Declared, so that clang (`make fuzz`) sees it as constructible inside this class.
    Current();
    Candidate candidate;
    Phase phase = Phase::search;
    std::vector<int> options;      // per cut, under the candidate's choices
    Problem full;                  // the problem with the candidate's holes
    int lower = 0, upper = 0;      // bisection: the earliest refuted prefix ends in (lower, upper]
    std::uint64_t upper_cost = 0;  // placements that refuted the prefix ending at `upper`
    std::vector<Deviation> deviations;  // to check or to probe, in order
    std::size_t next = 0;
    bool first_pass = false;                                  // checks within kProbePlacements
    std::vector<Deviation> recheck;                           // undecided in the first pass
    std::vector<Candidate> packing_prefix, undecided_prefix;  // the deviations kept
  };
  // One search of `problem` within `budget` (and the limits); nullopt when the limits ran out.
  // Without `offset_sets`, the search skips the offsets from subset sums (feasible_offsets.hpp):
  // an extension searches hundreds of prefixes for a few thousand placements each, where on some
  // problems making the sets takes longer than the search (held-out seed 4019).
  std::optional<ExactSearchResult> search(const Problem& problem, std::uint64_t budget,
                                          bool offset_sets = true);
  // One step of the candidate under way; a packing when one is found.
  std::optional<RefutedHolesStep> step();
  // The problem made full by `c`'s holes, cut to the steps before cut `prefix_end`.
  Problem prefix_of(const Candidate& c, int prefix_end) const;
  // Takes the first guess of `from` as the one under way, its full problem made.
  Current& start_current(std::deque<Candidate>& from);
  void start_next_candidate();
  void start_extending();
  void start_bisection();
  void start_checks(int prefix_end);
  // Queues the deviations kept by the checks (and, after the first pass, the second).
  void end_checks();
  void start_probes();
  void start_frontier();
  void start_extensions();
  Candidate deviated(const Candidate& c, Deviation d) const;

  const Problem& problem_;
  HoleDecompositions decompositions_;
  OffsetSetMemo& offsets_;
  int cuts_ = 0;  // cuts that may offer a choice (the decomposition's sections)
  std::deque<Candidate> candidates_;
  std::deque<Candidate> extendable_;  // left undecided, to extend once candidates_ is empty
  std::optional<Current> current_;
  bool exhausted_ = false;
  bool undecided_ = false;
  std::uint64_t searched_ = 0;
  // This call's.
  SearchLimits limits_;
  std::uint64_t spent_ = 0;
  bool out_of_limits_ = false;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace memplace::allocation
