#include "allocation/packer.hpp"

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "allocation/feasible_offsets.hpp"
#include "allocation/greedy_packing.hpp"
#include "allocation/guided_holes.hpp"
#include "allocation/phantom_holes.hpp"
#include "allocation/probed_holes.hpp"
#include "allocation/refuted_holes.hpp"
#include "allocation/seen_holes.hpp"
#include "allocation/skyline_search.hpp"

namespace memplace::allocation {
namespace {

// The first placement budget of the portfolio's runs; it doubles every round.
constexpr std::uint64_t kFirstBudget = 4096;

// A guess of the holes, made full, and its search (made at its first run, shuffled by that round).
// A kept guess's search goes on each round from where the last stopped; a fresh guess's runs once.
// A rerun from scratch with a new shuffle walked the first branches again: on 450 seed 349 no
// shuffle of the right guess packed within the budget of its round, while one search carried on
// packs it (docs/allocation.md, "Kept guesses search on"). Held by pointer: the search refers to
// the rest.
struct KeptGuess {
  // A constructor, not an aggregate: clang 14 (`make fuzz`) has no make_unique of aggregates.
  KeptGuess(Problem full_problem, std::vector<OffsetSet> full_feasible)
      : full(std::move(full_problem)), feasible(std::move(full_feasible)) {}

  Problem full;
  std::vector<OffsetSet> feasible;
  std::optional<SkylineSearch> search;
};

// A rule's guesses of the phantom holes; its first guess that no rule before it made, made full,
// is kept to be run again until it is refuted.
struct RuleGuesses {
  HoleRule rule;
  HoleDecompositions source;
  std::unique_ptr<KeptGuess> first;
  std::uint64_t first_index = 0;       // in the rule's order: "guess <k>"
  std::uint64_t first_placements = 0;  // its search's, over the rounds
  bool refuted = false;
  std::uint64_t made = 0;
};
// From round 2 on, each rule's first guess (and each guided guess) runs again at this many times
// the round's budget: a right first guess of a 450-buffer problem may need a few hundred thousand
// placements, which the round's budget reaches only after most of a minute of the portfolio's
// other runs (chosen on spare-bytes seeds 6-70 of 300 and 450 buffers; held out: 71-100).
constexpr std::uint64_t kFirstGuessBudgetFactor = 8;
// The round in which the narrow guided guesses (guided_holes.hpp) are made, after the rules'
// first guesses: their windows take seconds on a few hundred buffers, which round 1 would spend
// before round 2's runs decide what the portfolio packs cheaply (published problem I: 12.1 s with
// them in round 1, 1.4 s without).
constexpr std::uint64_t kNarrowGuidedRound = 2;
// The round at whose end, after its fresh guesses, the first two wide guided guesses are made (the
// other two a round later): a wide sweep of 450 buffers takes 2-27 s, so each round's cheaper
// guesses go first. All four at the end of round 2 lost a problem that round 3's fresh guesses
// pack; all four at the end of round 3 came too late for another (docs/allocation.md, "Wide
// guided guesses").
constexpr std::uint64_t kWideGuidedRound = 2;
// The round in which the neighbours of whole-first's and split-first's first guesses are probed
// (probed_holes.hpp), after the narrow guided guesses: the probes take a few seconds on 450
// buffers, which round 1 would spend before the cheap runs decide what the portfolio packs.
constexpr std::uint64_t kProbeRound = 2;
// The probed neighbours kept per rule: each runs again every round, at the first guesses' budget.
constexpr std::size_t kProbedPerRule = 1;
// The round at whose end, after its fresh guesses and before the wide guided guesses, the
// repaired guided guesses are made, those with windows 60 sections back and then the deep ones
// (100 back). Since a sweep gives up at its third unmended cut, a 450-buffer sweep takes at most
// some 20 s and most under 2 s; when the deep ones came a round later, the wide sweeps of round 2
// (up to half a minute) delayed them past the minute on spare-bytes seed 2105 (docs/allocation.md,
// "Sweeps give up").
constexpr std::uint64_t kRepairedGuidedRound = 2;
// The refutation-directed guesses (refuted_holes.hpp) made from a rule's refuted first guess run
// last, at the end of every round from the one that refuted it, and may spend up to one placement
// in this many of those the portfolio's other runs spent. Chosen on dev seed 3715 of 450 buffers,
// which they pack within the minute with half (not with a quarter or an eighth); on 30 late-packed
// dev problems that cost +1.6 % placements in all, as most are packed earlier in a round
// (docs/allocation.md, "Refutation-directed guesses").
constexpr std::uint64_t kRefutedShare = 2;
// From the end of this round, a rule whose first guess is still undecided (its kept search has
// not refuted it) gets refutation-directed guesses too, started from the guess's frontier
// (refuted_holes.hpp); its refutation, if it comes, directs them from then on. Until then each
// spends at most kUndecidedPlacements, in equal parts of the share but on top of it: on the dev
// problems they packed, they did so within 3.7 million placements, while taken from the refuted
// runs they lost 4112, whose whole-first run needs 17.5 million of a round-2 share of 17.6
// (docs/allocation.md, "Undecided first guesses").
constexpr std::uint64_t kUndecidedRound = 2;
constexpr std::uint64_t kUndecidedPlacements = 20 * RefutedHoles::kGuessPlacements;
struct RefutedRun {
  HoleRule rule = HoleRule::whole_first;
  std::unique_ptr<RefutedHoles> guesses;
  std::uint64_t spent = 0;  // placements, over the rounds
};
// A rule's guided guess (or a probed neighbour), made once and then run every round like a first
// guess (unless another guess had the same holes, or until it is refuted).
struct GuidedRun {
  HoleRule rule = HoleRule::whole_first;
  bool reversed = false;  // made on the problem with time reversed (its packings are the same)
  GuideWindow window{};   // none for a probed neighbour
  // The sweep that makes it: guided_holes, or repaired_holes (the look-back windows); neither for
  // a probed neighbour, made when it is found.
  enum class Sweep { guided, repaired, none } sweep = Sweep::none;
  // A widened sweep's options at its first cuts, as its narrower sweep took them (guided_holes).
  std::vector<int> decided{};
  // "guided", "wide guided", "repaired guided", "deep repaired guided", "widened guided" or
  // "probed neighbour of", in the method
  std::string label{};
  std::uint64_t made_in = 0;  // the round
  std::unique_ptr<KeptGuess> kept{};
  bool made = false;
};

// The two exact searches, each under every rank order (the skyline search forward and with time
// reversed too), in turn, each run stopped at a placement budget that doubles every round: their
// running times are heavy-tailed, and a search and order that make one problem hard often make
// another easy; a run that ends within its budget decides the problem, as every run is complete.
// The offset-ordered search goes first in each round, under the busiest-section order first
// (MiniMalloc's: it packs the published problems the other orders leave open); the skyline search
// then solves most of what it cannot, many times faster on full memories. Cost model v2's
// portfolio has the six orders it was measured with (under its budget of 20,000 placements,
// round 1's offset-ordered runs are all there is, so it allocates as it always has). At most
// twice the placements of the run that decides, times the number of runs per round. From round 2
// on, the skyline runs shuffle their rank orders a little (seeded by the round): a rerun of the
// same search with a bigger budget would only walk the same first branches again, while a
// shuffled one tries other first choices, which is what a heavy-tailed search needs. `method`
// names the run.
ExactSearchResult portfolio_search(const Problem& problem, const SearchLimits& limits,
                                   const SearchProgressCallback& progress, Portfolio portfolio,
                                   std::string& method) {
  const std::span<const RankOrder> orders = portfolio == Portfolio::cost_model_v2
                                                ? std::span<const RankOrder>(kCostModelV2RankOrders)
                                                : std::span<const RankOrder>(kRankOrders);
  const auto start = std::chrono::steady_clock::now();
  // Made when first needed: the offset-ordered runs of round 1 often decide (and are all cost
  // model v2's allocator runs), so most calls never reverse.
  std::optional<Problem> reversed;
  const auto reversed_problem = [&]() -> const Problem& {
    if (!reversed) reversed.emplace(time_reversed(problem));
    return *reversed;
  };
  // Computed once: the sets are the same for the problem and its time-reversed twin. The guesses
  // of its holes share most sections with it and with each other: their sets come from one memo.
  std::optional<std::vector<OffsetSet>> feasible;
  OffsetSetMemo offsets;
  enum class Run { offset_order, skyline, skyline_reversed };
  // With spare bytes, after each round's runs: guesses of the holes under three rules, each a
  // skyline run on the problem made full (phantom_holes.hpp). Not in cost model v2's portfolio,
  // whose verdicts stay as measured.
  std::vector<RuleGuesses> guessers;
  for (const HoleRule rule :
       {HoleRule::whole_first, HoleRule::split_first, HoleRule::split_then_cut})
    guessers.push_back({rule, HoleDecompositions(problem, rule), {}});
  // A sweep's run, to be made in round `made_in`.
  const auto sweep_run = [](HoleRule rule, bool reversed, GuideWindow window,
                            GuidedRun::Sweep sweep, std::string label, std::uint64_t made_in) {
    return GuidedRun{.rule = rule,
                     .reversed = reversed,
                     .window = window,
                     .sweep = sweep,
                     .label = std::move(label),
                     .made_in = made_in};
  };
  std::vector<GuidedRun> narrow_guided;
  for (const bool reversed : {false, true})
    for (const HoleRule rule : {HoleRule::split_first, HoleRule::whole_first})
      narrow_guided.push_back(sweep_run(rule, reversed, kNarrowGuide, GuidedRun::Sweep::guided,
                                        "guided", kNarrowGuidedRound));
  // In the order that packed the most of spare-bytes dev seeds' problems the narrow guesses miss;
  // two in each round from kWideGuidedRound.
  std::vector<GuidedRun> wide_guided;
  for (const auto& [rule, reversed, made_in] :
       {std::tuple{HoleRule::split_first, false, kWideGuidedRound},
        std::tuple{HoleRule::whole_first, true, kWideGuidedRound},
        std::tuple{HoleRule::split_first, true, kWideGuidedRound + 1},
        std::tuple{HoleRule::whole_first, false, kWideGuidedRound + 1}})
    wide_guided.push_back(
        sweep_run(rule, reversed, kWideGuide, GuidedRun::Sweep::guided, "wide guided", made_in));
  // Each kind in the order that packed the most of its dev misses (docs/allocation.md, "Repaired
  // guided guesses" and "Deep repaired guesses").
  std::vector<GuidedRun> repaired_guided;
  const auto add_repaired = [&](GuideWindow window, const char* label,
                                std::initializer_list<std::pair<HoleRule, bool>> sweeps) {
    for (const auto& [rule, reversed] : sweeps)
      repaired_guided.push_back(sweep_run(rule, reversed, window, GuidedRun::Sweep::repaired, label,
                                          kRepairedGuidedRound));
  };
  add_repaired(kLookBackGuide, "repaired guided",
               {{HoleRule::whole_first, false},
                {HoleRule::split_first, true},
                {HoleRule::whole_first, true},
                {HoleRule::split_first, false}});
  add_repaired(kDeepLookBackGuide, "deep repaired guided",
               {{HoleRule::split_first, true},
                {HoleRule::whole_first, false},
                {HoleRule::split_first, false},
                {HoleRule::whole_first, true}});
  // A narrow guided sweep that met a cut where none of its options' windows packs, though the cut
  // may offer more, is made again with up to kMostOptions options per cut, from that cut on
  // (before it, it would decide the same; with no such cut it is the same sweep), at the end of
  // its round after the wide guided guesses. The wide sweeps widened too packed two more dev
  // misses but cost a held-out set 9 % more placements (docs/allocation.md, "Widened guided
  // guesses").
  std::vector<GuidedRun> widened_guided;
  // Made in round kProbeRound: the neighbours of the rules' first guesses that probes rank best.
  std::vector<GuidedRun> probed_runs;
  // Made when a rule's first guess is refuted.
  std::vector<RefutedRun> refuted_runs;
  std::uint64_t refuted_spent = 0;
  const bool guess_holes = portfolio == Portfolio::latest && guessers[0].source.applicable();
  SeenHoles seen;
  std::uint64_t spent = 0;
  const auto placements_spent = [&] { return limits.placements > 0 && spent >= limits.placements; };
  // A run's limits: the time left, and the round's budget within the placements left.
  const auto run_limits = [&](std::uint64_t budget) {
    const double seconds_left =
        limits.seconds -
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::uint64_t run_budget = budget;
    if (limits.placements > 0) run_budget = std::min(run_budget, limits.placements - spent);
    return SearchLimits{seconds_left, run_budget};
  };
  // The progress of the run under way, its placements counted on from those spent before it;
  // a guess's run or a guided sweep says which it is (`name`) in the stage. At most once a
  // second, as a sweep reports after every section.
  enum class Stage { problem, guess, sweep, probe, refuted };
  auto next_report = start;
  const auto report_run = [&](Stage stage, const std::string& name) -> SearchProgressCallback {
    if (!progress) return {};
    return [&, stage, name](const SearchProgress& p) {
      const auto now = std::chrono::steady_clock::now();
      if (now < next_report) return;
      next_report = now + std::chrono::seconds(1);
      SearchProgress shown{spent + p.nodes,
                           p.deepest,
                           p.buffers,
                           std::chrono::duration<double>(now - start).count(),
                           {}};
      const std::string of = std::to_string(p.deepest) + " of " + std::to_string(p.buffers);
      if (stage == Stage::guess)
        shown.stage = name + ": at most " + of + " buffers and holes placed";
      else if (stage == Stage::sweep)
        shown.stage = name + ": holes chosen up to section " + of;
      else if (stage == Stage::probe)
        shown.stage = name + ": " + of + " probed";
      else if (stage == Stage::refuted)
        shown.stage = name + ": " + of + " guesses searched";
      progress(shown);
    };
  };
  for (std::uint64_t budget = kFirstBudget, round = 1;; budget *= 2, ++round) {
    for (const Run run : {Run::offset_order, Run::skyline, Run::skyline_reversed})
      for (const RankOrder order : orders) {
        const SearchLimits this_run = run_limits(budget);
        const SearchProgressCallback report = report_run(Stage::problem, {});
        if (run != Run::offset_order && !feasible) feasible.emplace(offsets(problem));
        ExactSearchResult r =
            run == Run::offset_order
                ? exact_search(problem, this_run, order, report)
                : skyline_search(run == Run::skyline ? problem : reversed_problem(), this_run,
                                 order, report, round > 1 ? round : 0, *feasible);
        spent += r.nodes;
        const bool budget_stopped =
            r.outcome == SearchOutcome::limit && r.nodes == this_run.placements;
        if (!budget_stopped || placements_spent()) {
          method = run == Run::offset_order ? "exact search (" : "skyline search (";
          method += name_of(order) + " order" +
                    (run == Run::skyline_reversed ? ", time reversed" : "") +
                    (run != Run::offset_order && round > 1 ? ", shuffled" : "") + ", round " +
                    std::to_string(round) + ")";
          r.nodes = spent;
          return r;
        }
      }
    if (!guess_holes) continue;
    // A guess's run, if it decides (packed, or out of time or placements); `guess` names it.
    // `refuted` says whether its full problem was proven to have no packing: its search is
    // complete, so carrying it on would only say so again.
    const auto run_guess = [&](const std::string& guess, SkylineSearch& search,
                               std::uint64_t guess_budget,
                               bool& refuted) -> std::optional<ExactSearchResult> {
      const SearchLimits this_run = run_limits(guess_budget);
      ExactSearchResult r = search.run(this_run, report_run(Stage::guess, guess));
      spent += r.nodes;
      refuted = r.outcome == SearchOutcome::infeasible;
      const std::string which = guess + ", round " + std::to_string(round) + ")";
      if (r.outcome == SearchOutcome::packed) {
        r.offsets.resize(problem.buffers.size());  // the holes dropped
        method = "skyline search on phantom holes (" + which;
        r.nodes = spent;
        return r;
      }
      // A full problem that cannot be packed says nothing of the original: the next guess.
      const bool out_of_time = r.outcome == SearchOutcome::limit && r.nodes < this_run.placements;
      if (!out_of_time && !placements_spent()) return std::nullopt;
      r.outcome = SearchOutcome::limit;
      r.offsets.clear();
      method = "phantom holes (" + which;
      r.nodes = spent;
      return r;
    };
    const std::uint64_t shuffle = round > 1 ? round : 0;
    // A guess's full problem with its offsets from subset sums, to be searched (on).
    const auto keep = [&](Problem full) {
      std::vector<OffsetSet> feasible = offsets(full);
      return std::make_unique<KeptGuess>(std::move(full), std::move(feasible));
    };
    // A kept guess's search, made at its first run.
    const auto kept_search = [&](KeptGuess& kept) -> SkylineSearch& {
      if (!kept.search)
        kept.search.emplace(kept.full, RankOrder::busiest_section, shuffle, kept.feasible);
      return *kept.search;
    };
    // Each rule's first guess and its guided guesses search on every round, for a bigger budget.
    const std::uint64_t rerun_budget = round == 1 ? budget : budget * kFirstGuessBudgetFactor;
    for (RuleGuesses& g : guessers) {
      while (!g.first) {
        std::optional<std::vector<Buffer>> holes = g.source.next();
        if (!holes) break;
        ++g.made;
        if (!seen.insert(*holes, false)) continue;
        g.first = keep(with_holes(problem, *holes));
        g.first_index = g.made;
      }
      if (!g.first || g.refuted) continue;
      const std::uint64_t before = spent;
      if (auto r = run_guess(name_of(g.rule) + " guess " + std::to_string(g.first_index),
                             kept_search(*g.first), rerun_budget, g.refuted))
        return *r;
      g.first_placements += spent - before;
      // Its refutation directs the guesses of the rule's (when it is the rule's own first).
      if (g.refuted && g.first_index == 1) {
        auto run = std::find_if(refuted_runs.begin(), refuted_runs.end(),
                                [&](const RefutedRun& r) { return r.rule == g.rule; });
        if (run != refuted_runs.end())
          run->guesses->first_refuted(g.first_placements);
        else
          refuted_runs.push_back({g.rule, std::make_unique<RefutedHoles>(
                                              problem, g.rule, g.first_placements, offsets)});
      }
    }
    if (round == kUndecidedRound)
      for (const RuleGuesses& g : guessers)
        if (g.first && g.first_index == 1 && !g.refuted)
          refuted_runs.push_back(
              {g.rule, std::make_unique<RefutedHoles>(problem, g.rule, 0, offsets)});
    // Guided guesses, made in round `made_in` and run again every round after it (their
    // windows' searches count as placements).
    const auto run_guided = [&](std::vector<GuidedRun>& runs) -> std::optional<ExactSearchResult> {
      for (GuidedRun& g : runs) {
        if (round < g.made_in) break;
        const std::string name =
            g.label + " " + name_of(g.rule) + (g.reversed ? ", time reversed" : "");
        if (!g.made) {
          g.made = true;
          const Problem& source = g.reversed ? reversed_problem() : problem;
          const SearchLimits left =
              run_limits(limits.placements > 0 ? limits.placements - spent : 0);
          GuidedGuess guess =
              g.sweep == GuidedRun::Sweep::repaired
                  ? repaired_holes(source, g.rule, g.window, left, report_run(Stage::sweep, name))
                  : guided_holes(source, g.rule, g.window, left, report_run(Stage::sweep, name),
                                 g.decided);
          spent += guess.placements;
          if (guess.short_of_options > 0 && g.window == kNarrowGuide) {
            widened_guided.push_back(sweep_run(g.rule, g.reversed, kWidenedGuide,
                                               GuidedRun::Sweep::guided, "widened " + g.label,
                                               round));
            widened_guided.back().decided = std::move(guess.decided_before_short);
          }
          if (!guess.complete) {
            // With limits left, the sweep gave up (too many cuts unmended): no guess.
            if (run_limits(1).seconds > 0 && !placements_spent()) continue;
            method = "phantom holes (" + name + ", round " + std::to_string(round) + ")";
            return ExactSearchResult{SearchOutcome::limit, {}, spent, 0};
          }
          if (!seen.insert(guess.holes, g.reversed)) continue;
          g.kept = keep(with_holes(source, guess.holes));
        }
        if (!g.kept) continue;
        bool refuted = false;
        if (auto r = run_guess(name, kept_search(*g.kept), rerun_budget, refuted)) return r;
        if (refuted) g.kept.reset();
      }
      return std::nullopt;
    };
    if (auto r = run_guided(narrow_guided)) return *r;
    if (round == kProbeRound) {
      SeenHoles probed;  // the neighbours probed, so that the second rule skips the first's
      for (const HoleRule rule : {HoleRule::whole_first, HoleRule::split_first}) {
        const std::string name = "neighbours of the " + name_of(rule) + " guess";
        const SearchLimits left = run_limits(limits.placements > 0 ? limits.placements - spent : 0);
        ProbedNeighbours found = probed_neighbours(problem, rule, kProbedPerRule, kProbePlacements,
                                                   left, probed, report_run(Stage::probe, name));
        spent += found.placements;
        if (!found.complete) {
          method = "phantom holes (probing " + name + ", round " + std::to_string(round) + ")";
          return ExactSearchResult{SearchOutcome::limit, {}, spent, 0};
        }
        for (const std::vector<Buffer>& holes : found.holes) {
          if (!seen.insert(holes, false)) continue;
          probed_runs.push_back({.rule = rule,
                                 .label = "probed neighbour of",
                                 .made_in = round,
                                 .kept = keep(with_holes(problem, holes)),
                                 .made = true});
        }
      }
    }
    if (auto r = run_guided(probed_runs)) return *r;
    // Then 2^round new guesses, the rules in turn, each run once at the round's budget (until
    // every rule's guesses are used up: `dry` rules in a row had none left).
    const std::uint64_t fresh = std::uint64_t{2} << std::min<std::uint64_t>(round - 1, 20);
    for (std::size_t k = 0, tried = 0, dry = 0; tried < fresh && dry < guessers.size(); ++k) {
      RuleGuesses& g = guessers[k % guessers.size()];
      std::optional<std::vector<Buffer>> holes = g.source.next();
      if (!holes) {
        ++dry;
        continue;
      }
      dry = 0;
      ++g.made;
      if (!seen.insert(*holes, false)) continue;
      ++tried;
      const std::unique_ptr<KeptGuess> fresh = keep(with_holes(problem, *holes));
      bool refuted = false;
      if (auto r = run_guess(name_of(g.rule) + " guess " + std::to_string(g.made),
                             kept_search(*fresh), budget, refuted))
        return *r;
    }
    // Last, the repaired guided guesses, the wide guided guesses, the costliest, and the widened.
    if (auto r = run_guided(repaired_guided)) return *r;
    if (auto r = run_guided(wide_guided)) return *r;
    if (auto r = run_guided(widened_guided)) return *r;
    // A refutation-directed run given `allowance` placements, if it decides.
    const auto run_refuted = [&](RefutedRun& run,
                                 std::uint64_t allowance) -> std::optional<ExactSearchResult> {
      const std::string name = "refutation-directed " + name_of(run.rule);
      RefutedHolesStep step = run.guesses->run(
          allowance, run_limits(limits.placements > 0 ? limits.placements - spent : 0),
          report_run(Stage::refuted, name));
      spent += step.placements;
      refuted_spent += step.placements;
      run.spent += step.placements;
      if (step.outcome == SearchOutcome::packed) {
        const auto deviations = std::count_if(step.choices.begin(), step.choices.end(),
                                              [](int option) { return option != 0; });
        method = "skyline search on phantom holes (" + name + ", " + std::to_string(deviations) +
                 (deviations == 1 ? " deviation" : " deviations") + ", round " +
                 std::to_string(round) + ")";
        return ExactSearchResult{SearchOutcome::packed, std::move(step.offsets), spent, 0};
      }
      if (run_limits(1).seconds <= 0 || placements_spent()) {
        method = "phantom holes (" + name + ", round " + std::to_string(round) + ")";
        return ExactSearchResult{SearchOutcome::limit, {}, spent, 0};
      }
      return std::nullopt;
    };
    // Then the refutation-directed guesses. Their share of the placements is split equally
    // between the rules' runs counted from their start, so a run made in a later round catches
    // up: on spare-bytes seed 2928 of 450 buffers, whole-first's first guess is refuted in round
    // 2 and split-first's in round 4, which then got a few hundred thousand placements a round.
    // The undecided runs go first, each within its equal part and kUndecidedPlacements, on top of
    // the share: what they spend is not the refuted runs'.
    const std::uint64_t share = (spent - refuted_spent) / kRefutedShare;
    for (RefutedRun& run : refuted_runs) {
      if (!run.guesses->undecided() || run.guesses->exhausted()) continue;
      const std::uint64_t allowed = std::min(share / refuted_runs.size(), kUndecidedPlacements);
      if (run.spent >= allowed) continue;
      if (auto r = run_refuted(run, allowed - run.spent)) return *r;
    }
    std::uint64_t open_share = share;  // less what the exhausted runs spent
    std::uint64_t active = 0;
    for (const RefutedRun& run : refuted_runs) {
      if (run.guesses->undecided()) continue;
      if (run.guesses->exhausted())
        open_share -= std::min(open_share, run.spent);
      else
        ++active;
    }
    if (active == 0) continue;
    const std::uint64_t each = open_share / active;
    for (RefutedRun& run : refuted_runs) {
      if (run.guesses->undecided() || run.guesses->exhausted() || run.spent >= each) continue;
      if (auto r = run_refuted(run, each - run.spent)) return *r;
    }
  }
}

}  // namespace

PackResult pack(const Problem& problem, const SearchLimits& limits, bool greedy_only,
                const SearchProgressCallback& progress, Portfolio portfolio) {
  check_problem(problem);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  PackResult result;
  result.peak = peak_live_bytes(problem.buffers);
  // Capped at 30 years: a duration in the clock's nanoseconds must not overflow.
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(std::min(limits.seconds, 1e9)));
  std::optional<GreedyPacking> greedy = best_greedy_packing(problem, kFitRules, deadline);
  if (greedy) result.greedy_height = greedy->height;
  if (result.peak > problem.capacity) {
    result.outcome = SearchOutcome::infeasible;
    result.method = "peak live bytes";
  } else if (greedy && greedy->height <= problem.capacity) {
    result.outcome = SearchOutcome::packed;
    result.offsets = std::move(greedy->offsets);
    result.method = greedy->method;
  } else if (!greedy_only && elapsed() < limits.seconds) {
    ExactSearchResult exact =
        portfolio_search(problem, {limits.seconds - elapsed(), limits.placements}, progress,
                         portfolio, result.method);
    result.outcome = exact.outcome;
    result.offsets = std::move(exact.offsets);
    result.nodes = exact.nodes;
  } else {
    result.method = greedy ? greedy->method : "greedy packings, cut short by the time limit";
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace memplace::allocation
