#include "allocation/refuted_holes.hpp"

#include <algorithm>
#include <utility>

#include "allocation/guided_holes.hpp"
#include "allocation/skyline_search.hpp"

namespace memplace::allocation {

RefutedHoles::Current::Current() = default;

RefutedHoles::RefutedHoles(const Problem& problem, HoleRule rule, std::uint64_t refuted_in,
                           OffsetSetMemo& offsets)
    : problem_(problem),
      // The plain options the fresh guesses take, and after them a whole hole and part of another
      // ending together (held-out misses 4019 and 4112 have that shape: docs/allocation.md).
      decompositions_(problem, rule, HoleDecompositions::kMaxOptions, HoleEnds::mixed),
      offsets_(offsets) {
  if (!decompositions_.applicable()) {
    exhausted_ = true;
    return;
  }
  cuts_ = static_cast<int>(decompositions_.cuts().size()) - 1;
  if (refuted_in > 0) {
    first_refuted(refuted_in);
  } else {
    // Extended from its frontier, as a guess whose (empty) prefix packed.
    undecided_ = true;
    Candidate root{std::vector<int>(static_cast<std::size_t>(cuts_), 0)};
    root.prefix_packs = true;
    extendable_.push_back(std::move(root));
  }
}

void RefutedHoles::first_refuted(std::uint64_t placements) {
  undecided_ = false;
  if (!decompositions_.applicable()) return;
  candidates_.push_front({std::vector<int>(static_cast<std::size_t>(cuts_), 0), 0, 0,
                          std::max<std::uint64_t>(placements, 1)});
  exhausted_ = false;  // the guesses from its frontier may all have been tried
}

RefutedHolesStep RefutedHoles::run(std::uint64_t allowance, const SearchLimits& limits,
                                   const SearchProgressCallback& progress) {
  limits_ = limits;
  spent_ = 0;
  out_of_limits_ = false;
  started_ = std::chrono::steady_clock::now();
  while (!exhausted_ && spent_ < allowance) {
    std::optional<RefutedHolesStep> packed = step();
    if (packed) {
      packed->placements = spent_;
      return *std::move(packed);
    }
    if (out_of_limits_) break;
    if (progress) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
      const auto known = searched_ + candidates_.size() + (current_ ? 1 : 0);
      progress({spent_, static_cast<int>(searched_), static_cast<int>(known), seconds, {}});
    }
  }
  RefutedHolesStep stopped;
  stopped.placements = spent_;
  return stopped;
}

std::optional<ExactSearchResult> RefutedHoles::search(const Problem& problem, std::uint64_t budget,
                                                      bool offset_sets) {
  const double seconds_left =
      limits_.seconds -
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  std::uint64_t run_budget = budget;
  if (limits_.placements > 0) run_budget = std::min(run_budget, limits_.placements - spent_);
  if (seconds_left <= 0 || run_budget == 0) {
    out_of_limits_ = true;
    return std::nullopt;
  }
  ExactSearchResult r =
      skyline_search(problem, {seconds_left, run_budget}, RankOrder::busiest_section, {}, 0,
                     offset_sets ? offsets_(problem) : std::vector<OffsetSet>{});
  spent_ += r.nodes;
  if (r.outcome == SearchOutcome::limit && r.nodes < budget) {
    out_of_limits_ = true;  // stopped by `limits`, not by its own budget: redone next call
    return std::nullopt;
  }
  return r;
}

RefutedHoles::Candidate RefutedHoles::deviated(const Candidate& c, Deviation d) const {
  Candidate next{c.choices, d.cut + 1, c.deviations + 1};
  next.choices[static_cast<std::size_t>(d.cut)] = d.option;
  return next;
}

Problem RefutedHoles::prefix_of(const Candidate& c, int prefix_end) const {
  const std::vector<std::int64_t>& cuts = decompositions_.cuts();
  return time_window(with_holes(problem_, decompositions_.walk(c.choices)), cuts.front(),
                     cuts[static_cast<std::size_t>(prefix_end)]);
}

RefutedHoles::Current& RefutedHoles::start_current(std::deque<Candidate>& from) {
  Current& c = current_.emplace();
  c.candidate = std::move(from.front());
  from.pop_front();
  c.full = with_holes(problem_, decompositions_.walk(c.candidate.choices, &c.options));
  return c;
}

void RefutedHoles::start_next_candidate() {
  Current& c = start_current(candidates_);
  if (!c.candidate.recheck.empty()) {
    c.phase = Phase::check;
    c.upper = c.candidate.prefix_end;
    c.upper_cost = c.candidate.refuted_in;
    c.deviations = std::move(c.candidate.recheck);
    c.next = 0;
  } else if (c.candidate.refuted_in > 0) {
    start_bisection();
    c.upper_cost = c.candidate.refuted_in;
  }
}

void RefutedHoles::start_extending() {
  Current& c = start_current(extendable_);
  if (c.candidate.prefix_packs) {
    start_frontier();
  } else {
    c.upper = c.candidate.prefix_end;
    start_extensions();
  }
}

void RefutedHoles::start_bisection() {
  Current& c = *current_;
  c.phase = Phase::bisect;
  c.lower = c.candidate.first_cut;  // its prefix was not refuted (or is empty)
  c.upper = cuts_;
}

void RefutedHoles::start_checks(int prefix_end) {
  Current& c = *current_;
  c.phase = Phase::check;
  c.upper = prefix_end;
  c.deviations.clear();
  for (int cut = prefix_end - 1; cut >= c.candidate.first_cut; --cut)
    for (int option = 1; option < c.options[static_cast<std::size_t>(cut)]; ++option)
      c.deviations.push_back({cut, option});
  c.next = 0;
  c.first_pass = true;
}

void RefutedHoles::end_checks() {
  Current& c = *current_;
  // After the first pass, the deviations undecided within kProbePlacements are checked again, at
  // their full budget, after the children whose prefix packed within it are searched: a right
  // deviation's prefix packs in a few thousand placements, while a refuted one takes tens of
  // thousands (spare-bytes seed 2928 of 450 buffers: 1,020-4,518 against 87,175-391,384).
  if (c.first_pass) {
    if (!c.recheck.empty()) {
      Candidate rest = c.candidate;
      rest.prefix_end = c.upper;
      rest.refuted_in = c.upper_cost;
      rest.recheck = std::move(c.recheck);
      candidates_.push_front(std::move(rest));
    }
    for (auto child = c.packing_prefix.rbegin(); child != c.packing_prefix.rend(); ++child)
      candidates_.push_front(std::move(*child));
    c.packing_prefix.clear();
  }
  for (std::vector<Candidate>* kept : {&c.packing_prefix, &c.undecided_prefix})
    for (Candidate& k : *kept)
      candidates_.push_back(std::move(k));
  c.phase = Phase::done;
}

void RefutedHoles::start_probes() {
  Current& c = *current_;
  c.phase = Phase::probe;
  c.deviations.clear();
  for (int cut = c.candidate.first_cut; cut < cuts_; ++cut)
    for (int option = 1; option < c.options[static_cast<std::size_t>(cut)]; ++option)
      c.deviations.push_back({cut, option});
  c.next = 0;
}

void RefutedHoles::start_frontier() {
  Current& c = *current_;
  c.phase = Phase::frontier;
  c.lower = c.candidate.prefix_end;
  c.upper = cuts_;
}

void RefutedHoles::start_extensions() {
  Current& c = *current_;
  c.phase = Phase::extend;
  c.deviations.clear();
  for (int cut = c.upper - 1; cut >= c.candidate.first_cut; --cut)
    for (int option = 1; option < c.options[static_cast<std::size_t>(cut)]; ++option)
      c.deviations.push_back({cut, option});
  c.next = 0;
}

std::optional<RefutedHolesStep> RefutedHoles::step() {
  if (!current_) {
    if (!candidates_.empty())
      start_next_candidate();
    else if (!extendable_.empty())
      start_extending();
    else {
      exhausted_ = true;
      return std::nullopt;
    }
  }
  Current& c = *current_;
  const auto packing = [&](ExactSearchResult& r, const Candidate& guess) {
    RefutedHolesStep packed;
    packed.outcome = SearchOutcome::packed;
    packed.offsets = std::move(r.offsets);
    packed.offsets.resize(problem_.buffers.size());  // the holes dropped
    packed.choices = guess.choices;
    return packed;
  };
  const std::vector<std::int64_t>& cuts = decompositions_.cuts();
  const bool may_deviate = c.candidate.deviations < kMostDeviations;
  switch (c.phase) {
    case Phase::search: {
      std::optional<ExactSearchResult> r = search(c.full, kGuessPlacements);
      if (!r) return std::nullopt;
      ++searched_;
      if (r->outcome == SearchOutcome::packed) return packing(*r, c.candidate);
      if (!may_deviate)
        c.phase = Phase::done;
      else if (r->outcome == SearchOutcome::infeasible) {
        start_bisection();
        c.upper_cost = r->nodes;
      } else
        start_probes();
      return std::nullopt;
    }
    case Phase::bisect: {
      if (c.upper - c.lower <= 1) {
        start_checks(c.upper);
        return std::nullopt;
      }
      const int middle = c.lower + (c.upper - c.lower) / 2;
      std::optional<ExactSearchResult> r =
          search(time_window(c.full, cuts.front(), cuts[static_cast<std::size_t>(middle)]),
                 kPrefixPlacements);
      if (!r) return std::nullopt;
      if (r->outcome == SearchOutcome::infeasible) {
        c.upper = middle;
        c.upper_cost = r->nodes;
      } else {
        c.lower = middle;
      }
      return std::nullopt;
    }
    case Phase::check: {
      if (c.next == c.deviations.size()) {
        end_checks();
        return std::nullopt;
      }
      Candidate child = deviated(c.candidate, c.deviations[c.next]);
      const Problem prefix = prefix_of(child, c.upper);
      // Twice what refuted the guess's own prefix: a deviation that leaves it refuted is usually
      // refuted as fast.
      const std::uint64_t budget = 2 * std::min(c.upper_cost, kPrefixPlacements) + kProbePlacements;
      const std::uint64_t pass_budget = c.first_pass ? std::min(budget, kProbePlacements) : budget;
      std::optional<ExactSearchResult> r = search(prefix, pass_budget);
      if (!r) return std::nullopt;
      const Deviation checked = c.deviations[c.next++];
      child.prefix_end = c.upper;
      child.prefix_packs = r->outcome == SearchOutcome::packed;
      if (r->outcome == SearchOutcome::packed)
        c.packing_prefix.push_back(std::move(child));
      else if (r->outcome == SearchOutcome::limit && pass_budget < budget)
        c.recheck.push_back(checked);
      else if (r->outcome == SearchOutcome::limit)
        c.undecided_prefix.push_back(std::move(child));
      return std::nullopt;
    }
    case Phase::probe: {
      if (c.next == c.deviations.size()) {
        if (c.candidate.prefix_end > 0) extendable_.push_back(c.candidate);
        c.phase = Phase::done;
        return std::nullopt;
      }
      const Candidate child = deviated(c.candidate, c.deviations[c.next]);
      std::optional<ExactSearchResult> r =
          search(with_holes(problem_, decompositions_.walk(child.choices)), kProbePlacements);
      if (!r) return std::nullopt;
      ++c.next;
      if (r->outcome == SearchOutcome::packed) return packing(*r, child);
      return std::nullopt;
    }
    case Phase::frontier: {
      if (c.upper - c.lower <= 1) {
        start_extensions();
        return std::nullopt;
      }
      const int middle = c.lower + (c.upper - c.lower) / 2;
      std::optional<ExactSearchResult> r =
          search(time_window(c.full, cuts.front(), cuts[static_cast<std::size_t>(middle)]),
                 kExtendPlacements, false);
      if (!r) return std::nullopt;
      if (r->outcome == SearchOutcome::packed)
        c.lower = middle;
      else
        c.upper = middle;
      return std::nullopt;
    }
    case Phase::extend: {
      if (c.next == c.deviations.size()) {
        c.phase = Phase::done;
        return std::nullopt;
      }
      Candidate child = deviated(c.candidate, c.deviations[c.next]);
      const Problem prefix = prefix_of(child, c.upper);
      std::optional<ExactSearchResult> r = search(prefix, kExtendPlacements, false);
      if (!r) return std::nullopt;
      ++c.next;
      if (r->outcome == SearchOutcome::packed) {
        child.prefix_end = c.upper;
        child.prefix_packs = true;
        candidates_.push_back(std::move(child));
      }
      return std::nullopt;
    }
    case Phase::done:
      current_.reset();
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace memplace::allocation
