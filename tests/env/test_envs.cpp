// The environments on toy workloads, with answers computed by hand (numbers in
// tests/support/toy.hpp: FAST 1000 B, 1 B = 1 ns; SLOW 1 B = 10 ns; 1 MAC = 1 ns; 5 ns overhead per
// layer).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <tuple>

#include "base/portable_math.hpp"
#include "env/placement_context.hpp"
#include "env/registry.hpp"
#include "env/sequential_env.hpp"
#include "env/single_step_env.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"
#include "model/inputs/workload.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::ns;
constexpr std::int64_t F = 0;
constexpr std::int64_t S = 1;

std::shared_ptr<const PlacementContext> toy_context(const Workload& w) {
  return make_placement_context(std::make_shared<const Simulator>(w, toy::hardware()));
}

SingleStepEnv single_step(const Workload& w, SingleStepOptions options = {}) {
  return SingleStepEnv("toy/single-step", toy_context(w), options);
}

// chain (A -> B -> C), tensors A.w A.o B.w B.o C.w C.o:
//   all SLOW: A 600 B x 10 ns + 5 = 6005, B 500 B -> 5005, C 150 B -> 1505: 12515 ns.
//   compiler: benefit per byte A.o 20, B.o 20, A.w 10, B.w 10, C.o 10 (C.w has 0 bytes); all of
//   them fit FAST (300 pinned + at most 400 live), so it is all FAST: A 1005 (its 100-byte graph
//   input stays in SLOW), B 1005 (compute), C 155: 2165 ns.
//   {F, S, S, F, S, S}: A 4005, B 4005, C 505: 8515 ns (tests/model/test_simulator_toy.cpp).
TEST_CASE("single-step: reference latencies of the toy chain") {
  const auto ctx = toy_context(toy::chain());
  CHECK(ctx->all_slowest_fs == ns(12515));
  CHECK(ctx->compiler_fs == ns(2165));
}

TEST_CASE("single-step: the three reward modes on a valid mapping") {
  const std::vector<std::int64_t> mixed = {F, S, S, F, S, S};
  const double s = 2165.0 / 8515.0;
  struct Mode {
    SpeedupReward reward;
    double expected;
  };
  for (const Mode& mode :
       {Mode{SpeedupReward::speedup, s - 1}, Mode{SpeedupReward::log_speedup, std::log(s)},
        Mode{SpeedupReward::egrl, s * s - 1}}) {
    SingleStepEnv env = single_step(toy::chain(), {mode.reward, InvalidPolicy::penalize});
    env.reset(1);
    const StepResult r = env.step(mixed);
    CHECK(r.reward == mode.expected);
    CHECK(r.terminated);
    CHECK_FALSE(r.truncated);
    CHECK(r.info.latency_fs == ns(8515));
    CHECK(r.info.speedup == s);
    CHECK(r.info.valid);
    CHECK(r.info.overflow_bytes == 0);
    CHECK_FALSE(r.info.rectified);
    CHECK(r.info.step == 1);
  }
  // At parity with the compiler every mode gives 0.
  for (SpeedupReward mode :
       {SpeedupReward::speedup, SpeedupReward::log_speedup, SpeedupReward::egrl}) {
    SingleStepEnv env = single_step(toy::chain(), {mode, InvalidPolicy::penalize});
    env.reset();
    CHECK(env.step(std::vector<std::int64_t>(6, F)).reward == 0.0);
  }
}

TEST_CASE("single-step: the observation shows the mapping and the reset info the all-SLOW one") {
  SingleStepEnv env = single_step(toy::chain());
  CHECK(describe(env.action_space()) == "MultiDiscrete([2] * 6)");
  const auto space = std::get<GraphSpace>(env.observation_space());
  CHECK(space.num_nodes == 3);
  CHECK(space.node_features == 21 + 2);  // 11 op kinds + 10 scalars, then 2 memory columns
  CHECK(space.num_edges == 2);
  CHECK(space.mask_size == 6 * 2);
  const ResetResult start = env.reset(3);
  CHECK(start.info.latency_fs == ns(12515));
  CHECK(start.info.speedup == 2165.0 / 12515.0);
  CHECK(start.info.step == 0);
  for (std::size_t l = 0; l < 3; ++l) {
    CHECK(start.obs.feature(l, 21) == 1.0f);  // weight memory: SLOW = 1
    CHECK(start.obs.feature(l, 22) == 1.0f);  // activation memory
  }
  const StepResult r = env.step(std::vector<std::int64_t>{F, S, S, F, S, S});
  const std::vector<float> expected = {0, 1, 1, 0, 1, 1};
  for (std::size_t l = 0; l < 3; ++l) {
    CHECK(r.obs.feature(l, 21) == expected[2 * l]);
    CHECK(r.obs.feature(l, 22) == expected[2 * l + 1]);
  }
  // The static mask hint: every chain tensor fits FAST (at most 300 bytes).
  for (std::uint8_t m : r.obs.action_mask)
    CHECK(m == 1);
}

TEST_CASE("single-step: the mask hint rules out memories a tensor cannot fit") {
  SingleStepEnv env = single_step(toy::huge_weight());
  const ResetResult start = env.reset();
  // A.w is 5000 bytes: not in FAST (1000 B), fine in SLOW; everything else fits both.
  const std::vector<std::uint8_t> mask(start.obs.action_mask.begin(), start.obs.action_mask.end());
  CHECK(mask == std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1, 1, 1});
}

// tight (A -> B, A -> C, B -> C; weights 0 bytes; A.o and B.o 600 bytes, both live at step 1):
//   all SLOW: A 600 B -> 6005, B 1200 B -> 12005, C 1210 B -> 12105: 30115 ns.
//   compiler: A.o (benefit per byte 29) to FAST, B.o (20) does not fit beside it, C.o (10) to
//   FAST: A 605, B 6005 (B.o in SLOW), C 6005 (reads B from SLOW): 12615 ns.
//   all FAST: A.o, B.o and C.o are all live at step 2: 1210 bytes, 210 over FAST's 1000.
TEST_CASE("single-step: the penalty for an invalid mapping") {
  const auto ctx = toy_context(toy::tight());
  CHECK(ctx->all_slowest_fs == ns(30115));
  CHECK(ctx->compiler_fs == ns(12615));
  const double slowest = 12615.0 / 30115.0;
  const std::vector<std::int64_t> all_fast(6, F);
  struct Mode {
    SpeedupReward reward;
    double floor;         // the all-SLOW speedup's reward (-1 for egrl, as EGRL's code)
    double lowest_valid;  // the all-SLOW speedup's reward
  };
  for (const Mode& mode :
       {Mode{SpeedupReward::speedup, slowest - 1, slowest - 1},
        Mode{SpeedupReward::log_speedup, portable::log(slowest), portable::log(slowest)},
        Mode{SpeedupReward::egrl, -1.0, slowest * slowest - 1}}) {
    SingleStepEnv env("toy/single-step", ctx, {mode.reward, InvalidPolicy::penalize});
    env.reset();
    const StepResult r = env.step(all_fast);
    CHECK_FALSE(r.info.valid);
    CHECK(r.info.overflow_bytes == 210);
    CHECK_FALSE(r.info.rectified);
    // floor - overflow / (capacity of every memory but the slowest) = floor - 210 / 1000.
    CHECK(r.reward == mode.floor - 0.21);
    CHECK(r.reward == env.invalid_reward(210));
    // Below every valid mapping's reward: all 2^6 mappings, scored by the environment.
    double lowest_valid = std::numeric_limits<double>::infinity();
    int valid = 0;
    for (int bits = 0; bits < 64; ++bits) {
      std::vector<std::int64_t> action(6);
      for (int t = 0; t < 6; ++t)
        action[static_cast<std::size_t>(t)] = (bits >> t) & 1;
      env.reset();
      const StepResult scored = env.step(action);
      if (scored.info.valid) {
        lowest_valid = std::min(lowest_valid, scored.reward);
        ++valid;
      } else {
        CHECK(scored.reward < mode.floor);
      }
    }
    CHECK(valid == 48);  // invalid exactly when A.o and B.o are both FAST (16 mappings)
    CHECK(lowest_valid == mode.lowest_valid);
    CHECK(r.reward < lowest_valid);
  }
}

TEST_CASE("single-step: rectify demotes the cheapest occupant and scores the result") {
  // All FAST peaks at step 2 (A.o, B.o, C.o: 1210 bytes). Demotion costs per byte: A.o 14990 ns
  // / 600 (A, B and C touch it), B.o 9590 / 600 (B and C), C.o 10 / 10 (C: FAST 1210 -> 1200
  // bytes, SLOW 10 bytes = 100 ns): C.o goes first. That leaves 1200 bytes at steps 1 and 2; the
  // first peak is step 1 (A.o and B.o): B.o goes. A.o alone in FAST: A 605, B 6005, C reads B
  // from SLOW and writes C.o there (610 bytes): 6105 -> 12715 ns.
  SingleStepEnv env = single_step(toy::tight(), {SpeedupReward::speedup, InvalidPolicy::rectify});
  env.reset();
  const StepResult r = env.step(std::vector<std::int64_t>(6, F));
  CHECK_FALSE(r.info.valid);  // as given
  CHECK(r.info.overflow_bytes == 210);
  CHECK(r.info.rectified);
  CHECK(r.info.demotions == 2);
  CHECK(r.info.latency_fs == ns(12715));
  CHECK(r.info.speedup == 12615.0 / 12715.0);
  CHECK(r.reward == 12615.0 / 12715.0 - 1);
  // The observation shows the rectified mapping: B.o and C.o in SLOW.
  CHECK(r.obs.feature(0, 22) == 0.0f);
  CHECK(r.obs.feature(1, 22) == 1.0f);
  CHECK(r.obs.feature(2, 22) == 1.0f);
  CHECK(r.obs.feature(0, 21) == 0.0f);  // weights (0 bytes) are never demoted
  // A valid mapping is not rectified.
  env.reset();
  const StepResult valid = env.step(std::vector<std::int64_t>{S, F, S, S, S, F});
  CHECK(valid.info.valid);
  CHECK_FALSE(valid.info.rectified);
  CHECK(valid.info.demotions == 0);
  CHECK(valid.info.latency_fs == ns(12615));
}

TEST_CASE("single-step: bad actions name the problem and change nothing") {
  SingleStepEnv env = single_step(toy::chain());
  env.reset();
  const std::uint64_t hash = env.observation().hash();
  CHECK_THROWS_WITH_AS(env.step(std::vector<std::int64_t>(5, F)),
                       doctest::Contains("action has 5 entries; expected 6"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(env.step(std::vector<std::int64_t>{F, F, F, 2, F, F}),
                       doctest::Contains("action[3] = 2 is not a memory"), std::invalid_argument);
  CHECK(env.observation().hash() == hash);
  CHECK(env.step(std::vector<std::int64_t>(6, F)).terminated);
  CHECK_THROWS_WITH_AS(env.step(std::vector<std::int64_t>(6, F)),
                       doctest::Contains("after the episode ended"), std::invalid_argument);
}

TEST_CASE("single-step: step_mapping is step with the action as a mapping") {
  SingleStepEnv env = single_step(toy::tight(), {SpeedupReward::speedup, InvalidPolicy::rectify});
  for (const Mapping& m : {Mapping(6, F), Mapping{S, F, S, S, S, F}, Mapping(6, S)}) {
    env.reset();
    const StepResult a = env.step(std::vector<std::int64_t>(m.begin(), m.end()));
    env.reset();
    const StepResult b = env.step_mapping(m);
    CHECK(a.reward == b.reward);
    CHECK(a.info.latency_fs == b.info.latency_fs);
    CHECK(a.info.rectified == b.info.rectified);
    CHECK(a.obs.hash() == b.obs.hash());
  }
  env.reset();
  CHECK_THROWS_WITH_AS(env.step_mapping(Mapping(5, F)),
                       doctest::Contains("action has 5 entries; expected 6"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(env.step_mapping(Mapping{F, F, F, 2, F, F}),
                       doctest::Contains("is memory 2"), std::invalid_argument);
  CHECK(env.step_mapping(Mapping(6, S)).terminated);
  CHECK_THROWS_WITH_AS(env.step_mapping(Mapping(6, S)),
                       doctest::Contains("after the episode ended"), std::invalid_argument);
}

// Sequential on tight: only the three activations have bytes (weights are 0 bytes), so the
// episode places A.o, B.o, C.o.
//   place A.o in FAST: A 605, B 6005, C reads A from FAST, B and C.o in SLOW: 6105 -> 12715 ns.
//   B.o: FAST holds A.o (600 B over steps 0-2), so B.o (600 B over 1-2) does not fit: SLOW only;
//   the latency does not change (it was counted in SLOW already).
//   C.o in FAST (610 B at step 2): C 6005 -> 12615 ns, speedup 1.
TEST_CASE("sequential: order masks and dense rewards on the tight toy") {
  SequentialEnv env("toy/sequential", toy_context(toy::tight()));
  CHECK(env.episode_length() == 3);
  const std::vector<std::size_t> order(env.placement_order().begin(), env.placement_order().end());
  CHECK(order == std::vector<std::size_t>{1, 3, 5});
  CHECK(describe(env.action_space()) == "Discrete(2)");

  const ResetResult start = env.reset(4);
  CHECK(start.info.latency_fs == ns(30115));
  auto mask = [&] {
    const ObservationView obs = env.observation();
    return std::vector<std::uint8_t>(obs.action_mask.begin(), obs.action_mask.end());
  };
  CHECK(mask() == std::vector<std::uint8_t>{1, 1});
  // Dynamic columns after the 21 static ones: weight/activation memory, placed, current.
  CHECK(start.obs.feature(0, 21 + 5) == 1.0f);  // A's activation is being placed
  CHECK(start.obs.feature(1, 21 + 5) == 0.0f);

  const StepResult r1 = env.step(F);
  CHECK(r1.info.latency_fs == ns(12715));
  CHECK(r1.reward == 12615.0 / 12715.0 - 12615.0 / 30115.0);
  CHECK_FALSE(r1.terminated);
  CHECK(r1.obs.feature(0, 21 + 1) == 0.0f);  // A.o in FAST
  CHECK(r1.obs.feature(0, 21 + 3) == 1.0f);  // placed
  CHECK(r1.obs.feature(0, 21 + 5) == 0.0f);  // no longer current
  CHECK(r1.obs.feature(1, 21 + 5) == 1.0f);  // B's activation is
  CHECK(mask() == std::vector<std::uint8_t>{0, 1});
  CHECK_THROWS_WITH_AS(env.step(F), doctest::Contains("masked"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(env.step(F), doctest::Contains("layer 'B'"), std::invalid_argument);

  const StepResult r2 = env.step(S);
  CHECK(r2.reward == 0.0);
  CHECK(r2.info.latency_fs == ns(12715));
  CHECK(mask() == std::vector<std::uint8_t>{1, 1});

  const StepResult r3 = env.step(F);
  CHECK(r3.terminated);
  CHECK(r3.info.latency_fs == ns(12615));
  CHECK(r3.info.speedup == 1.0);
  CHECK(r3.info.step == 3);
  CHECK(r3.reward == 1.0 - 12615.0 / 12715.0);
  CHECK(r1.reward + r2.reward + r3.reward == doctest::Approx(1.0 - 12615.0 / 30115.0));
  CHECK(mask() == std::vector<std::uint8_t>{0, 0});  // nothing to place any more
  const std::vector<MemoryIndex> mapping(env.mapping().begin(), env.mapping().end());
  CHECK(mapping == std::vector<MemoryIndex>{1, 0, 1, 1, 1, 0});
  CHECK_THROWS_AS(env.step(S), std::invalid_argument);
}

TEST_CASE("sequential: masked_action=fallback takes the next slower memory that holds the tensor") {
  SequentialEnv env("toy/sequential", toy_context(toy::tight()),
                    {.order = PlacementOrder::schedule,
                     .reward = RewardTiming::dense,
                     .masked_action = MaskedAction::fallback});
  env.reset(4);
  const StepResult r1 = env.step(F);
  CHECK_FALSE(r1.info.replaced_action);
  // FAST is full for B's activation (the mask is {0, 1}): F becomes S, as the raising env's S.
  const StepResult r2 = env.step(F);
  CHECK(r2.info.replaced_action);
  CHECK(r2.reward == 0.0);
  CHECK(r2.info.latency_fs == ns(12715));
  CHECK(env.mapping()[3] == S);
  const StepResult r3 = env.step(F);
  CHECK_FALSE(r3.info.replaced_action);
  CHECK(r3.info.speedup == 1.0);
  // The other checks stay: out of range and after the end still throw.
  CHECK_THROWS_AS(env.step(S), std::invalid_argument);
}

TEST_CASE("fallback_action: the nearest allowed action after it, else before it") {
  const std::vector<std::uint8_t> mask = {0, 1, 0, 1, 0};
  CHECK(fallback_action(mask, 0) == 1);
  CHECK(fallback_action(mask, 2) == 3);
  CHECK(fallback_action(mask, 4) == 3);
  CHECK(fallback_action(std::vector<std::uint8_t>{1, 0, 0}, 2) == 0);
  CHECK(fallback_action(std::vector<std::uint8_t>{1, 0, 0, 1}, 1) == 3);
  CHECK_THROWS_AS(fallback_action(std::vector<std::uint8_t>{0, 0}, 0), std::logic_error);
}

// reset_to on tight, from the mapping A.o, C.o in FAST (12615 ns, speedup 1): the unplaced
// tensors wait there. Moving A.o to SLOW leaves C.o alone in FAST: A 6005 (600 B from SLOW),
// B 12005 (1200 B in SLOW), C max(10 ns FAST, 12000 ns SLOW) + 5 = 12005: 30015 ns; and B.o
// (600 B over steps 1-2) then fits beside C.o (10 B at step 2).
TEST_CASE("sequential: reset_to starts from a mapping, and the rewards sum to the change") {
  SequentialEnv env("toy/sequential", toy_context(toy::tight()));
  const std::vector<MemoryIndex> start{1, 0, 1, 1, 1, 0};  // A.o and C.o in FAST
  const ResetResult r0 = env.reset_to(start);
  CHECK(r0.info.latency_fs == ns(12615));
  CHECK(r0.info.speedup == 1.0);
  CHECK(r0.obs.feature(0, 21 + 1) == 0.0f);  // A.o shown in FAST ...
  CHECK(r0.obs.feature(0, 21 + 3) == 0.0f);  // ... not placed yet
  CHECK(r0.obs.feature(2, 21 + 1) == 0.0f);  // C.o in FAST
  CHECK(r0.obs.feature(1, 21 + 1) == 1.0f);  // B.o in SLOW
  auto mask = [&] {
    const ObservationView obs = env.observation();
    return std::vector<std::uint8_t>(obs.action_mask.begin(), obs.action_mask.end());
  };
  CHECK(mask() == std::vector<std::uint8_t>{1, 1});
  const StepResult r1 = env.step(S);
  CHECK(r1.info.latency_fs == ns(30015));
  CHECK(r1.reward == 12615.0 / 30015.0 - 1.0);
  CHECK(mask() == std::vector<std::uint8_t>{1, 1});  // A.o left: B.o fits now
  const StepResult r2 = env.step(S);
  CHECK(r2.reward == 0.0);
  const StepResult r3 = env.step(F);  // C.o stays in FAST
  CHECK(r3.terminated);
  CHECK(r3.reward == 0.0);
  CHECK(r3.info.latency_fs == ns(30015));
  const std::vector<MemoryIndex> end(env.mapping().begin(), env.mapping().end());
  CHECK(end == std::vector<MemoryIndex>{1, 1, 1, 1, 1, 0});
  CHECK(r1.reward + r2.reward + r3.reward == doctest::Approx(r3.info.speedup - 1.0));

  // The sparse reward is measured from the start too.
  SequentialEnv sparse("toy/sequential", toy_context(toy::tight()),
                       {PlacementOrder::schedule, RewardTiming::terminal});
  sparse.reset_to(start);
  sparse.step(S);
  sparse.step(S);
  CHECK(sparse.step(F).reward == 12615.0 / 30015.0 - 1.0);
}

TEST_CASE("sequential: reset_to refuses a start that is not a valid mapping") {
  SequentialEnv env("toy/sequential", toy_context(toy::tight()));
  CHECK_THROWS_WITH_AS(env.reset_to(std::vector<MemoryIndex>{1, 0}),
                       doctest::Contains("needs 6 memories, one per tensor; got 2"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(env.reset_to(std::vector<MemoryIndex>{1, 0, 1, 1, 1, 2}),
                       doctest::Contains("tensor 5 has memory 2, not in 0..1"),
                       std::invalid_argument);
  // A.o and B.o both in FAST overlap at steps 1-2: 1200 bytes in a 1000-byte memory.
  CHECK_THROWS_WITH_AS(env.reset_to(std::vector<MemoryIndex>{1, 0, 1, 0, 1, 1}),
                       doctest::Contains("does not fit"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(env.step(S), doctest::Contains("after the episode ended"),
                       std::invalid_argument);
  env.reset_to(std::vector<MemoryIndex>{1, 1, 1, 1, 1, 1});  // all SLOW: reset()'s state
  CHECK(env.step(F).info.latency_fs == ns(12715));
}

TEST_CASE("sequential: a workload that does not fit even the slowest memory is refused") {
  // B's 2 MB weight does not fit SLOW (1 MB): some step would have no legal action.
  const Workload w =
      toy::workload("big", {{"A", 0, 0, 600, {}, 0}, {"B", 0, 2'000'000, 10, {{"A", 600}}}});
  CHECK_THROWS_WITH_AS(SequentialEnv("toy/sequential", toy_context(w)),
                       doctest::Contains("does not fit in SLOW (1000610 bytes over)"), InputError);
}

TEST_CASE("sequential: terminal reward is zero until the last step") {
  SequentialEnv env("toy/sequential", toy_context(toy::tight()),
                    {PlacementOrder::schedule, RewardTiming::terminal});
  env.reset();
  CHECK(env.step(F).reward == 0.0);
  CHECK(env.step(S).reward == 0.0);
  const StepResult last = env.step(F);
  CHECK(last.terminated);
  CHECK(last.reward == 1.0 - 12615.0 / 30115.0);
}

TEST_CASE("sequential: schedule and msa placement orders on the chain") {
  // Schedule order: every tensor with bytes, weight before activation (C.w has 0 bytes).
  SequentialEnv schedule("toy/sequential", toy_context(toy::chain()));
  const std::vector<std::size_t> s(schedule.placement_order().begin(),
                                   schedule.placement_order().end());
  CHECK(s == std::vector<std::size_t>{0, 1, 2, 3, 5});
  // msa: benefit / sqrt(bytes), from all SLOW: A.o 6000/sqrt(300) = 346, B.o 2000/10 = 200,
  // A.w 2000/sqrt(200) = 141, B.w 1000/10 = 100, C.o 500/sqrt(50) = 71.
  SequentialEnv msa("toy/sequential", toy_context(toy::chain()),
                    {PlacementOrder::msa, RewardTiming::dense});
  const std::vector<std::size_t> m(msa.placement_order().begin(), msa.placement_order().end());
  CHECK(m == std::vector<std::size_t>{1, 3, 0, 2, 5});
  // The first tensor to place is flagged: A's activation (column 5 of 6 dynamic ones).
  const ResetResult start = msa.reset();
  CHECK(start.obs.feature(0, 21 + 5) == 1.0f);
  CHECK(start.obs.feature(0, 21 + 4) == 0.0f);
}

TEST_CASE("observation: static features of the toy chain by hand") {
  const auto ctx = toy_context(toy::chain());
  const StaticGraph& g = *ctx->graph;
  CHECK(g.num_nodes == 3);
  CHECK(g.num_features == 21);
  CHECK(g.feature_names[0] == "op_conv");
  CHECK(g.feature_names[11] == "log_macs");
  CHECK(g.feature_names[20] == "out_degree");
  CHECK(g.edges == std::vector<std::int64_t>{0, 1, 1, 2});  // sources, then targets
  auto at = [&](std::size_t layer, std::size_t f) { return g.nodes[layer * 21 + f]; };
  // Op one-hot: every toy layer is a conv.
  CHECK(at(0, 0) == 1.0f);
  for (std::size_t f = 1; f < 11; ++f)
    CHECK(at(0, f) == 0.0f);
  // A: 100 MACs, 200 weight bytes, 300 output bytes, 100 bytes of graph input; log2(1 + x) / 40.
  CHECK(at(0, 11) == doctest::Approx(std::log2(101.0) / 40));
  CHECK(at(0, 12) == 0.0f);  // no vector ops
  CHECK(at(0, 13) == doctest::Approx(std::log2(201.0) / 40));
  CHECK(at(0, 15) == doctest::Approx(std::log2(301.0) / 40));
  CHECK(at(0, 16) == doctest::Approx(std::log2(101.0) / 40));
  // B reads 300 bytes of A.
  CHECK(at(1, 16) == doctest::Approx(std::log2(301.0) / 40));
  // Live range (last use - step) / (N - 1) and position step / (N - 1).
  CHECK(at(0, 17) == 0.5f);
  CHECK(at(0, 18) == 0.0f);
  CHECK(at(1, 18) == 0.5f);
  CHECK(at(2, 17) == 0.0f);
  CHECK(at(2, 18) == 1.0f);
  // Degrees: log2(1 + d) / 8.
  CHECK(at(0, 19) == 0.0f);
  CHECK(at(0, 20) == 0.125f);
  CHECK(at(1, 19) == 0.125f);
  CHECK(at(2, 20) == 0.0f);
}

TEST_CASE("observation: copy and hash") {
  SequentialEnv env("toy/sequential", toy_context(toy::tight()));
  const ResetResult start = env.reset();
  const Observation kept = start.obs.copy();
  const std::uint64_t hash = start.obs.hash();
  CHECK(kept.view().hash() == hash);
  env.step(F);
  // The view follows the environment; the copy does not.
  CHECK(env.observation().hash() != hash);
  CHECK(kept.view().hash() == hash);
  CHECK(kept.view().node_features().size() == 3 * (21 + SequentialEnv::kDynamicFeatures));
}

TEST_CASE("observation: pad marks real rows and edges and zero-fills the rest") {
  SingleStepEnv env = single_step(toy::chain());
  const ResetResult start = env.reset();
  const std::size_t f = start.obs.num_features();
  const PaddedObservation p = pad(start.obs, 5, 4);
  CHECK(p.num_features == f);
  CHECK(p.nodes.size() == 5 * f);
  CHECK(p.node_mask == std::vector<std::uint8_t>{1, 1, 1, 0, 0});
  CHECK(p.edges == std::vector<std::int64_t>{0, 1, 0, 0, 1, 2, 0, 0});
  CHECK(p.edge_mask == std::vector<std::uint8_t>{1, 1, 0, 0});
  const std::vector<float> real = start.obs.node_features();
  CHECK(std::equal(real.begin(), real.end(), p.nodes.begin()));
  CHECK(std::all_of(p.nodes.begin() + static_cast<std::ptrdiff_t>(3 * f), p.nodes.end(),
                    [](float x) { return x == 0.0f; }));
  CHECK(p.action_mask.size() == 12);
  // Exactly the graph's size fits; one less of either does not.
  CHECK(pad(start.obs, 3, 2).node_mask == std::vector<std::uint8_t>{1, 1, 1});
  CHECK_THROWS_WITH_AS(pad(start.obs, 2, 4), doctest::Contains("graph has 3 nodes and 2 edges"),
                       std::invalid_argument);
  CHECK_THROWS_AS(pad(start.obs, 3, 1), std::invalid_argument);
}

TEST_CASE("registry: a suite instance is listed in every kind, at the suite's cost model") {
  const auto& specs = registered_envs();
  for (const auto& [kind, id, cost_model] :
       {std::tuple{"single-step", "memplace/single-step-resnet18-b1-on-edge-tpu-cm1-v0",
                   "streaming"},
        std::tuple{"sequential", "memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0", "streaming"},
        std::tuple{"malloc", "memplace/malloc-resnet18-b1-on-edge-tpu-cm2-v0", "addressed"}}) {
    CAPTURE(id);
    const auto spec =
        std::find_if(specs.begin(), specs.end(), [&](const EnvSpec& e) { return e.id == id; });
    REQUIRE(spec != specs.end());
    CHECK(spec->kind == kind);
    CHECK(spec->suite == "v1");
    CHECK(spec->workload == "resnet18-b1");
    CHECK(spec->hardware == "edge-tpu");
    const OptionMap options = make(id)->options();
    CHECK(options.at("workload") == "resnet18-b1");
    CHECK(options.at("hardware") == "edge-tpu");
    CHECK(options.at("dynamics") == cost_model);
    // Its id of before the grammar makes the same environment.
    CHECK(make(spec->path_id)->options() == options);
  }
  CHECK(make("memplace/single-step/resnet18-b1@edge-tpu-v1")->options().at("workload") ==
        "resnet18-b1");
  // Any suite workload on any chip, unlisted.
  CHECK(make("memplace/sequential-resnet18-b1-on-nnpi-cm0-v0")->options().at("hardware") == "nnpi");
  std::size_t suite_specs = 0;
  for (const EnvSpec& spec : specs)
    suite_specs += spec.suite == "v1";
  CHECK(suite_specs == 3 * load_suite("v1").instances.size());
}

TEST_CASE("registry: unknown ids and bad options are InputErrors that name them") {
  CHECK_THROWS_WITH_AS(
      make("memplace/single-step/no-such-net-v0"),
      doctest::Contains("unknown environment 'memplace/single-step/no-such-net-v0'"), InputError);
  CHECK_THROWS_AS(make("memplace/single-step/resnet50-v9"), InputError);  // no such version
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet50-v1", {{"lookahead", "-2"}}),
                       doctest::Contains("option lookahead"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet50-v0", {{"dynamics", "streaming"}}),
                       doctest::Contains("unknown option 'dynamics'"), InputError);
  CHECK_THROWS_AS(make("gym/CartPole-v1"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet50-v0", {{"rewrd", "egrl"}}),
                       doctest::Contains("unknown option 'rewrd'"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet50-v0", {{"reward", "fast"}}),
                       doctest::Contains("option 'reward': expected one of speedup, log-speedup, "
                                         "egrl, got 'fast'"),
                       InputError);
  CHECK_THROWS_WITH_AS(make("memplace/sequential/resnet50-v0", {{"order", "random"}}),
                       doctest::Contains("option 'order'"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/sequential/resnet50-v0", {{"memory_time", "min"}}),
                       doctest::Contains("option 'memory_time'"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/sequential-v0", {{"hardware", ""}}),
                       doctest::Contains("option 'hardware': must not be empty"), InputError);
  // A workload-specific id fixes the workload.
  CHECK_THROWS_WITH_AS(make("memplace/sequential/resnet50-v0", {{"workload", "bert-base"}}),
                       doctest::Contains("the id fixes the workload to resnet50, got "
                                         "workload=bert-base"),
                       InputError);
  // An id with @<hardware> fixes the hardware too, and names a shipped model.
  CHECK_THROWS_WITH_AS(make("memplace/sequential/resnet50@edge-tpu-v0", {{"hardware", "nnpi"}}),
                       doctest::Contains("the id fixes the hardware to edge-tpu, got "
                                         "hardware=nnpi"),
                       InputError);
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet50@tpu-v9-v1"),
                       doctest::Contains("no shipped hardware model 'tpu-v9'"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet5@tpu-v4i-v1"),
                       doctest::Contains("-<workload>-on-<chip>-"), InputError);
  // The grammar's own errors say what the kind has.
  CHECK_THROWS_WITH_AS(make("memplace/sequential-resnet50-on-nnpi-cm1-v3"),
                       doctest::Contains("sequential is at revision v0, not v3"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/malloc-resnet50-on-nnpi-cm1-v0"),
                       doctest::Contains("malloc has no cost model cm1 (it has cm2"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/sequential-resnet50-cm1-v0"),
                       doctest::Contains("an id names its chip"), InputError);
  CHECK_THROWS_WITH_AS(make("memplace/sequential-resnet50-on-tpu-v9-cm1-v0"),
                       doctest::Contains("no shipped hardware model 'tpu-v9'"), InputError);
  CHECK_THROWS_WITH_AS(
      make("memplace/sequential-resnet50-on-nnpi-cm1-v0", {{"hardware", "ipu-gc200"}}),
      doctest::Contains("the id fixes the hardware to nnpi"), InputError);
  // The default hardware named explicitly is the same environment as its short id.
  CHECK(make("memplace/sequential/resnet50@nnpi-v0", {{"hardware", "nnpi"}})->options() ==
        make("memplace/sequential/resnet50-v0")->options());
  // Sequential options are not single-step options.
  CHECK_THROWS_WITH_AS(make("memplace/single-step/resnet50-v0", {{"order", "msa"}}),
                       doctest::Contains("unknown option 'order'"), InputError);
}

TEST_CASE("registry: one id per family, cost model, workload and chip, in the grammar") {
  const std::vector<EnvSpec>& specs = registered_envs();
  const std::size_t workloads = embedded_workload_names().size();
  const std::size_t hardware = embedded_hardware_names().size();
  std::size_t versions = 0;
  for (const EnvFamily& family : env_families())
    versions += family.versions.size();
  const std::size_t instances = load_suite("v1").instances.size();
  CHECK(specs.size() == versions * (1 + workloads * hardware) + env_families().size() * instances);
  std::set<std::string> ids;
  for (const EnvSpec& spec : specs) {
    CAPTURE(spec.id);
    CHECK(ids.insert(spec.id).second);
    CHECK(spec.id.ends_with("-" + spec.cost_model + "-" + spec.revision));
    CHECK(spec.cost_model == "cm" + spec.version.substr(1));
    CHECK(spec.id ==
          env_id_for(spec.kind, parse_version(spec.version), spec.workload, spec.hardware));
    // Gymnasium's grammar: namespace/name-vN, no '@', one '/'.
    CHECK(spec.id.find('@') == std::string::npos);
    CHECK(std::count(spec.id.begin(), spec.id.end(), '/') == 1);
    std::set<std::string> options;
    for (const OptionSpec& o : env_option_specs(spec.id))
      options.insert(o.name);
    CHECK(options.count("workload") == (spec.workload.empty() ? 1 : 0));
    CHECK(options.count("hardware") == (spec.hardware.empty() ? 1 : 0));
    CHECK(spec.hardware.empty() == spec.workload.empty());  // a workload's id names its chip
    if (!spec.workload.empty())
      CHECK(spec.id.find("-" + spec.workload + "-on-" + spec.hardware + "-cm") !=
            std::string::npos);
  }
  // Every id of before the grammar, on the shipped workloads, names a listed environment's
  // options (a short id on nnpi leaves the hardware option open).
  for (const EnvSpec& spec : specs) {
    if (!spec.suite.empty()) continue;
    const bool short_nnpi = !spec.workload.empty() && spec.hardware == kDefaultHardware;
    CHECK(env_option_specs(spec.path_id).size() ==
          env_option_specs(spec.id).size() + (short_nnpi ? 1 : 0));
  }
}

TEST_CASE("registry: options() round-trips and names every option") {
  const auto env = make("memplace/sequential/resnet50-v0", {{"order", "msa"}});
  const OptionMap o = env->options();
  CHECK(o.at("workload") == "resnet50");
  CHECK(o.at("hardware") == "nnpi");
  CHECK(o.at("order") == "msa");
  CHECK(o.at("reward") == "dense");
  // The same id with its own options() makes the same environment (the workload it fixes too).
  CHECK(make(env->id(), o)->options() == o);
  const auto generic = make("memplace/sequential-v0", o);
  CHECK(generic->options() == o);
  CHECK(generic->episode_length() == env->episode_length());
  CHECK(describe(generic->observation_space()) == describe(env->observation_space()));
}

}  // namespace
}  // namespace memplace
