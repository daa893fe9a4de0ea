// The Gumbel tree search (agents/planning/gumbel_search.hpp) on toy environments small enough to
// enumerate: it finds the brute-forced best episode, its root is sequential halving by hand, masks
// hold at every node, and the same seed gives the same search.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "agents/planning/gumbel_search.hpp"
#include "env/malloc/malloc_env.hpp"
#include "env/placement_context.hpp"
#include "env/sequential_env.hpp"
#include "env/spaces.hpp"
#include "tests/support/toy.hpp"

namespace memplace::agents::planning {
namespace {

std::unique_ptr<Env> sequential(std::uint64_t seed, std::size_t layers, std::size_t memories) {
  auto sim = std::make_shared<const Simulator>(toy::random_workload(seed, layers),
                                               toy::hardware_levels(memories));
  return std::make_unique<SequentialEnv>("toy/sequential", make_placement_context(sim));
}

std::unique_ptr<Env> malloc(std::uint64_t seed, std::size_t layers) {
  Hardware hw = toy::hardware_levels(3);
  hw.memories[0].alignment_bytes = 16;
  SimulatorOptions options;
  options.dynamics = Dynamics::addressed;
  auto sim = std::make_shared<const Simulator>(toy::random_workload(seed, layers), hw, options);
  return std::make_unique<MallocEnv>("toy/malloc", make_placement_context(sim, ModelVersion::v2));
}

// The best return from `state` on, by enumerating every allowed action sequence: of a complete
// episode, or with `any_state` of any state below it (every state a complete mapping: reset_to).
double best_return(const Env& state, bool any_state = false) {
  double best = -std::numeric_limits<double>::infinity();
  const std::vector<std::uint8_t> mask(state.observation().action_mask.begin(),
                                       state.observation().action_mask.end());
  for (std::size_t a = 0; a < mask.size(); ++a) {
    if (mask[a] == 0) continue;
    auto next = state.clone();
    const StepResult r = next->step(static_cast<std::int64_t>(a));
    const double below = r.terminated ? 0.0 : best_return(*next, any_state);
    best = std::max(best, r.reward + (any_state ? std::max(0.0, below) : below));
  }
  return best;
}

// Logits drawn at random, large on masked actions too (the search must ignore them), and a value
// drawn at random: a stand-in for an untrained network.
Evaluator random_evaluator(std::uint64_t seed) {
  auto rng = std::make_shared<Rng>(seed);
  return [rng](const Env& state) {
    PriorAndValue pv;
    for (std::size_t a = 0; a < state.observation().action_mask.size(); ++a)
      pv.logits.push_back(4 * rng->uniform01() - 2 + (state.observation().action_mask[a] ? 0 : 50));
    pv.value = rng->uniform01() - 0.5;
    return pv;
  };
}

TEST_CASE("gumbel search: with enough simulations it finds the brute-forced best episode") {
  int instances = 0;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    auto env = seed % 3 == 2 ? malloc(seed, 3) : sequential(seed, 3, 2 + seed % 2);
    env->reset(seed);
    CAPTURE(seed);
    const double optimum = best_return(*env);
    // From the start of the episode: every leaf is reached within the root's first phase.
    Rng rng(seed);
    const SearchResult r =
        gumbel_search(*env, uniform_evaluation, {.simulations = 6000, .considered = 16}, rng);
    REQUIRE(r.best_state != nullptr);
    CHECK(r.best_return == doctest::Approx(optimum).epsilon(1e-12));
    // Played step by step, a search per decision (its played actions, not its best leaf) ends
    // at the optimum too.
    double played = 0;
    for (bool done = false; !done;) {
      const SearchResult step =
          gumbel_search(*env, uniform_evaluation, {.simulations = 400, .considered = 16}, rng);
      const StepResult s = env->step(step.action);
      played += s.reward;
      done = s.terminated;
    }
    CHECK(played == doctest::Approx(optimum).epsilon(1e-12));
    ++instances;
  }
  CHECK(instances == 12);
}

TEST_CASE("gumbel search: with complete states, the best state anywhere in the tree") {
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    CAPTURE(seed);
    auto env = sequential(seed, 3, 3);
    auto& seq = dynamic_cast<SequentialEnv&>(*env);
    // Start from the mapping a random episode ends with.
    Rng draw(seed);
    env->reset(seed);
    for (bool done = false; !done;) {
      const auto mask = env->observation().action_mask;
      done =
          env->step(Discrete{static_cast<std::int64_t>(mask.size())}.sample(draw, mask)).terminated;
    }
    const Mapping start(seq.mapping().begin(), seq.mapping().end());
    seq.reset_to(start);
    Rng rng(seed);
    const SearchResult all = gumbel_search(*env, uniform_evaluation,
                                           {.simulations = 6000, .complete_states = true}, rng);
    REQUIRE(all.best_state != nullptr);
    CHECK(all.best_return == doctest::Approx(best_return(*env, /*any_state=*/true)).epsilon(1e-12));
    // One simulation reaches one state, the child of the action it plays, not the end: that state
    // is the best seen, with its step's reward as its return.
    const SearchResult one =
        gumbel_search(*env, uniform_evaluation, {.simulations = 1, .complete_states = true}, rng);
    REQUIRE(one.best_state != nullptr);
    CHECK(one.best_return == env->clone()->step(one.action).reward);
    const SearchResult ends_only = gumbel_search(*env, uniform_evaluation, {.simulations = 1}, rng);
    CHECK(ends_only.best_state == nullptr);
  }
}

TEST_CASE("gumbel search: the root is sequential halving, by hand") {
  // 4 considered actions, 16 simulations: two phases; the first visits each action
  // 16 / (2 x 4) = 2 times, keeps the better two, which get 16 / (2 x 2) = 4 visits each more.
  std::unique_ptr<Env> env;
  std::vector<int> considered;
  for (std::uint64_t seed = 0; considered.size() < 4 && seed < 50; ++seed) {
    env = sequential(seed, 4, 5);  // 5 memories: up to 5 actions at the first step
    env->reset(0);
    // Without noise and with equal logits, the root considers the 4 lowest allowed actions.
    considered.clear();
    const auto mask = env->observation().action_mask;
    for (std::size_t a = 0; a < mask.size() && considered.size() < 4; ++a)
      if (mask[a] != 0) considered.push_back(static_cast<int>(a));
  }
  REQUIRE(considered.size() == 4);
  Rng rng(1);
  const SearchResult r = gumbel_search(*env, uniform_evaluation,
                                       {.simulations = 16, .considered = 4, .gumbel = false}, rng);
  std::vector<int> visits;
  for (const int a : considered)
    visits.push_back(r.visits[a]);
  std::ranges::sort(visits);
  CHECK(visits == std::vector<int>{2, 2, 6, 6});
  int total = 0;
  for (const int v : r.visits)
    total += v;
  CHECK(total == 16);
  // The action played is one of the two kept.
  CHECK(r.visits[r.action] == 6);
  // With one action considered, every simulation goes to it: the lowest allowed action.
  const SearchResult one = gumbel_search(*env, uniform_evaluation,
                                         {.simulations = 7, .considered = 1, .gumbel = false}, rng);
  CHECK(one.action == considered.front());
  CHECK(one.visits[considered.front()] == 7);
}

TEST_CASE("gumbel search: one decision ranks by mean return when prior and value are flat") {
  // The last step of an episode is a bandit: each allowed action's Q is its reward. Considering
  // all of them with enough simulations, the search plays the best.
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    auto env = sequential(seed, 2, 3);
    env->reset(0);
    // Walk to the last decision in the slowest memory (always allowed).
    for (std::size_t step = 0; step + 1 < env->episode_length(); ++step)
      env->step(std::int64_t{2});
    CAPTURE(seed);
    const auto mask = env->observation().action_mask;
    std::vector<double> reward(mask.size(), -1e300);
    for (std::size_t a = 0; a < mask.size(); ++a) {
      if (mask[a] == 0) continue;
      auto probe = env->clone();
      const StepResult s = probe->step(static_cast<std::int64_t>(a));
      REQUIRE(s.terminated);
      reward[a] = s.reward;
    }
    const double best = *std::ranges::max_element(reward);
    Rng rng(seed);
    const SearchResult r =
        gumbel_search(*env, uniform_evaluation, {.simulations = 32, .considered = 8}, rng);
    CHECK(reward[r.action] == best);  // one of the best (memories can tie)
    CHECK(r.best_return == best);
    CHECK(r.root_value == best);  // every child seen: the root is solved
  }
}

TEST_CASE("gumbel search: masks hold at every node, and the policy is zero where masked") {
  int searches = 0;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    auto env = seed % 2 == 0 ? malloc(seed, 5) : sequential(seed, 6, 3);
    env->reset(seed);
    const Evaluator evaluate = random_evaluator(seed);
    Rng rng(seed + 100);
    for (bool done = false; !done;) {
      // A masked action stepped anywhere in the tree throws: the search would fail here.
      const SearchResult r =
          gumbel_search(*env, evaluate, {.simulations = 24, .considered = 4}, rng);
      const auto mask = env->observation().action_mask;
      REQUIRE(mask[r.action] != 0);
      double sum = 0;
      for (std::size_t a = 0; a < mask.size(); ++a) {
        if (mask[a] == 0) CHECK(r.improved_policy[a] == 0.0);
        if (mask[a] == 0) CHECK(r.visits[a] == 0);
        sum += r.improved_policy[a];
      }
      CHECK(sum == doctest::Approx(1.0));
      done = env->step(r.action).terminated;
      ++searches;
    }
  }
  CHECK(searches > 20);
}

TEST_CASE("gumbel search: the same state, options and seed give the same search") {
  auto env = malloc(3, 6);
  env->reset(0);
  const auto run = [&](std::uint64_t seed) {
    Rng rng(seed);
    return gumbel_search(*env, random_evaluator(7), {.simulations = 40, .considered = 8}, rng);
  };
  const SearchResult a = run(11), b = run(11);
  CHECK(a.action == b.action);
  CHECK(a.visits == b.visits);
  CHECK(a.improved_policy == b.improved_policy);
  CHECK(a.root_value == b.root_value);
  CHECK(a.model_steps == b.model_steps);
  CHECK(a.evaluations == b.evaluations);
  CHECK(a.best_return == b.best_return);
}

TEST_CASE("gumbel search: bad options and evaluators are refused, naming what is wrong") {
  auto env = sequential(1, 3, 2);
  env->reset(0);
  Rng rng(1);
  CHECK_THROWS_WITH_AS(gumbel_search(*env, uniform_evaluation, {.simulations = 0}, rng),
                       "simulations must be >= 1, not 0", std::invalid_argument);
  CHECK_THROWS_WITH_AS(gumbel_search(*env, uniform_evaluation, {.considered = 0}, rng),
                       "considered must be >= 1, not 0", std::invalid_argument);
  const Evaluator short_logits = [](const Env&) { return PriorAndValue{{0.0}, 0.0}; };
  CHECK_THROWS_WITH_AS(gumbel_search(*env, short_logits, {}, rng),
                       doctest::Contains("the evaluator gave 1 logits for 2 actions"),
                       std::invalid_argument);
  while (!env->step(std::int64_t{1}).terminated) {
  }
  CHECK_THROWS_WITH_AS(gumbel_search(*env, uniform_evaluation, {}, rng),
                       doctest::Contains("the episode has ended"), std::invalid_argument);
}

}  // namespace
}  // namespace memplace::agents::planning
