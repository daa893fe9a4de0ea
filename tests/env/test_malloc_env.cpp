// The malloc env (docs/envs/malloc.md): the candidate offsets by hand on small gap lists and
// on a toy chain, and its promises over random masked episodes on shipped workloads — the layout
// is always a packing, the final score is the full v2 evaluation of exactly that layout (never
// faster than v1), both reward modes sum to the same return, and clone() continues exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "allocation/gaps.hpp"
#include "env/malloc/malloc_env.hpp"
#include "env/registry.hpp"
#include "model/dynamics/addressed.hpp"
#include "model/inputs/embedded.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using allocation::gap_candidates;
using allocation::Range;
using Offsets = std::array<std::int64_t, 4>;  // lowest, best fit, widest, highest

TEST_CASE("malloc env: candidate offsets among gaps, by hand") {
  // Gaps [10, 20) (10 bytes), [25, 40) (15) and none above 100.
  const std::vector<Range> taken = {{0, 10}, {20, 25}, {40, 100}};
  CHECK(gap_candidates(taken, 8, 1, 100) == Offsets{10, 10, 25, 32});
  // Aligned to 4: [12, 20) (8 bytes) and [28, 40) (12); the highest is 40 - 8 = 32.
  CHECK(gap_candidates(taken, 8, 4, 100) == Offsets{12, 12, 28, 32});
  CHECK(gap_candidates(taken, 12, 1, 100) == Offsets{25, 25, 25, 28});
  // Aligned to 3 (not a power of two: divided, not masked): [12, 20) and [27, 40); 32 rounds
  // down to 30.
  CHECK(gap_candidates(taken, 8, 3, 100) == Offsets{12, 12, 27, 30});
  CHECK(gap_candidates(taken, 16, 1, 100) == Offsets{-1, -1, -1, -1});
  // Ranges that overlap each other (not live together): the gaps are [30, 35) and [40, 50).
  const std::vector<Range> overlapping = {{0, 30}, {10, 20}, {35, 40}};
  CHECK(gap_candidates(overlapping, 5, 1, 50) == Offsets{30, 30, 40, 45});
  // Nothing taken: one gap, the whole memory; the highest sits at the top, aligned down.
  CHECK(gap_candidates({}, 60, 16, 112) == Offsets{0, 0, 0, 48});
}

TEST_CASE("malloc env: the state's blocks stay by memory then offset, and a copy is exact") {
  MallocArrays arrays({.tensors = 6, .actions = 9, .dynamic = 5, .grid = 7, .max_blocks = 4});
  arrays.insert_block(1, {.offset = 50, .tensor = 0, .first = 0, .last = 1});
  arrays.insert_block(0, {.offset = 30, .tensor = 1, .first = 0, .last = 2});
  arrays.insert_block(1, {.offset = 10, .tensor = 2, .first = 1, .last = 3});
  arrays.insert_block(0, {.offset = 20, .tensor = 3, .first = 2, .last = 2});
  std::ranges::fill(arrays.dynamic(), 0.5f);
  arrays.grid()[6] = 0.25f;
  arrays.mapping()[5] = 2;
  const auto offsets = [](std::span<const AddressBlock> blocks) {
    std::vector<std::int64_t> out;
    for (const AddressBlock& b : blocks)
      out.push_back(b.offset);
    return out;
  };
  CHECK(offsets(arrays.blocks(0)) == std::vector<std::int64_t>{20, 30});
  CHECK(offsets(arrays.blocks(1)) == std::vector<std::int64_t>{10, 50});
  CHECK(offsets(arrays.all_blocks()) == std::vector<std::int64_t>{20, 30, 10, 50});
  CHECK_THROWS_AS(arrays.insert_block(0, {.offset = 0, .tensor = 4, .first = 0, .last = 0}),
                  std::length_error);

  const MallocArrays copy(arrays);
  CHECK(offsets(copy.all_blocks()) == offsets(arrays.all_blocks()));
  CHECK(copy.all_blocks()[1].tensor == 1);
  CHECK(std::ranges::equal(copy.dynamic(), arrays.dynamic()));
  CHECK(copy.grid()[6] == 0.25f);
  CHECK(copy.mapping()[5] == 2);
  arrays.clear_blocks();
  CHECK(arrays.all_blocks().empty());
  CHECK(copy.blocks(1).size() == 2);
}

// Z -> A -> B -> C -> D as in tests/model/test_addressed.cpp: outputs Z 60 bytes (steps 0-1),
// A, B, C 10 (their step and the next), D 10 (step 4); D's weight 40 bytes (every step). FAST has
// 112 bytes, offsets multiples of 16.
std::shared_ptr<const PlacementContext> toy_context() {
  Hardware hw = toy::hardware();
  hw.memories[0].capacity_bytes = 112;
  hw.memories[0].alignment_bytes = 16;
  const Workload w = toy::workload("chain5", {{"Z", 50, 0, 60, {}},
                                              {"A", 50, 0, 10, {{"Z", 60}}},
                                              {"B", 100, 0, 10, {{"A", 10}}},
                                              {"C", 100, 0, 10, {{"B", 10}}},
                                              {"D", 100, 40, 10, {{"C", 10}}}});
  SimulatorOptions options;
  options.dynamics = Dynamics::addressed;
  return make_placement_context(std::make_shared<const Simulator>(w, hw, options),
                                ModelVersion::v2);
}

std::vector<std::uint8_t> mask_of(const ObservationView& obs) {
  return {obs.action_mask.begin(), obs.action_mask.end()};
}

TEST_CASE("malloc env: the toy chain, every candidate by hand") {
  MallocEnv env("toy", toy_context());
  // Actions: 0 = SLOW; 1-4 = FAST at the lowest, best-fit, widest, highest offset.
  const std::vector<std::size_t> order = {1, 3, 5, 7, 8, 9};  // outputs, then D's weight and output
  CHECK(std::vector<std::size_t>(env.placement_order().begin(), env.placement_order().end()) ==
        order);
  ResetResult start = env.reset(0);
  // Z.out (60 bytes) in an empty FAST: lowest = best = widest = 0 (repeats masked), highest 48.
  CHECK(mask_of(start.obs) == std::vector<std::uint8_t>{1, 1, 0, 0, 1});
  CHECK(env.candidate_offset(4) == 48);
  StepResult r = env.step(4);  // Z.out at [48, 108)
  // A.out (steps 1-2) is live with Z.out: the gap [0, 48) (highest 32), and none above 108 (112).
  CHECK(mask_of(r.obs) == std::vector<std::uint8_t>{1, 1, 0, 0, 1});
  CHECK(env.candidate_offset(1) == 0);
  CHECK(env.candidate_offset(4) == 32);
  r = env.step(1);  // A.out at [0, 10)
  // B.out (steps 2-3) is live with A.out only: the gap from 16 to 112.
  CHECK(env.candidate_offset(1) == 16);
  CHECK(env.candidate_offset(4) == 96);
  r = env.step(4);  // B.out at [96, 106)
  // C.out (steps 3-4) is live with B.out only: [0, 96), lowest 0, highest 80.
  CHECK(env.candidate_offset(1) == 0);
  CHECK(env.candidate_offset(4) == 80);
  r = env.step(1);  // C.out at [0, 10)
  // D's weight (40 bytes, every step) meets all four: taken [0, 10), [0, 10), [48, 108),
  // [96, 106); the gap [16, 48) is 32 bytes: no FAST candidate.
  CHECK(mask_of(r.obs) == std::vector<std::uint8_t>{1, 0, 0, 0, 0});
  CHECK_THROWS_AS(env.step(1), std::invalid_argument);
  r = env.step(0);  // D.weight in SLOW
  // D.out (step 4) is live with C.out [0, 10) only (D's weight is in SLOW): the gap from 16 up.
  CHECK(env.candidate_offset(1) == 16);
  r = env.step(1);  // D.out at [16, 26)
  REQUIRE(r.terminated);
  const std::vector<std::int64_t> offsets = {-1, 48, -1, 0, -1, 96, -1, 0, -1, 16};
  CHECK(env.tensor_offsets() == offsets);
  const Simulator& sim = env.simulator();
  CHECK(layout_faults(sim, env.mapping(), offsets).empty());
  Evaluation v2;
  sim.evaluate_at_offsets(env.mapping(), offsets, v2);
  CHECK(r.info.latency_fs == v2.latency_fs);
}

// Random masked episodes: the promises of docs/envs/malloc.md.
void check_random_episodes(const std::string& id, int episodes) {
  CAPTURE(id);
  const auto dense = make(id);
  const auto terminal = make(id, {{"reward", "terminal"}});
  const Simulator& sim = dense->simulator();
  SimulatorOptions streaming_options;
  streaming_options.dynamics = Dynamics::streaming;
  const Simulator streaming(sim.workload(), sim.hardware(), streaming_options);
  const auto& game = dynamic_cast<const MallocEnv&>(*dense);
  const Discrete space = std::get<Discrete>(dense->action_space());
  Evaluation v1, v2;
  for (int episode = 0; episode < episodes; ++episode) {
    const ResetResult start = dense->reset(static_cast<std::uint64_t>(episode));
    ObservationView obs = start.obs;
    terminal->reset(static_cast<std::uint64_t>(episode));
    double dense_sum = 0, terminal_sum = 0;
    std::unique_ptr<Env> copy;
    std::vector<std::int64_t> actions;
    StepResult last;
    while (true) {
      // The unmasked candidates of each memory are distinct offsets.
      for (std::size_t a = 1; a < obs.action_mask.size(); ++a)
        for (std::size_t b = 1; b < a; ++b)
          if (obs.action_mask[a] && obs.action_mask[b] &&
              game.candidate_memory(a) == game.candidate_memory(b))
            CHECK(game.candidate_offset(a) != game.candidate_offset(b));
      const std::int64_t a = space.sample(dense->rng(), obs.action_mask);
      if (actions.size() == dense->episode_length() / 2) copy = dense->clone();
      actions.push_back(copy ? a : -1);
      last = dense->step(a);
      dense_sum += last.reward;
      terminal_sum += terminal->step(a).reward;
      if (last.terminated) break;
      obs = last.obs;
    }
    const std::vector<std::int64_t> offsets = game.tensor_offsets();
    CHECK(layout_faults(sim, game.mapping(), offsets).empty());
    sim.evaluate_at_offsets(game.mapping(), offsets, v2);
    streaming.evaluate(game.mapping(), v1);
    REQUIRE(v1.valid);
    CHECK(last.info.latency_fs == v2.latency_fs);
    CHECK(v2.latency_fs >= v1.latency_fs);
    // Both reward modes: the final speedup minus the all-slowest mapping's.
    CHECK(terminal_sum == last.info.speedup - start.info.speedup);
    CHECK(std::abs(dense_sum - terminal_sum) <= 1e-9 * std::abs(terminal_sum) + 1e-12);
    // The clone taken halfway, given the same actions, ends in the same place.
    StepResult replay;
    for (const std::int64_t a : actions)
      if (a >= 0) replay = copy->step(a);
    CHECK(replay.info.latency_fs == last.info.latency_fs);
    CHECK(replay.obs.hash() == last.obs.hash());
  }
}

TEST_CASE("malloc env: random masked episodes on resnet50 and bert-base (nnpi)") {
  check_random_episodes("memplace/malloc/resnet50-v2", 40);
  check_random_episodes("memplace/malloc/bert-base-v2", 10);
}

TEST_CASE("malloc env: random masked episodes on every other hardware model") {
  for (const char* hardware : {"tpu-v4i", "edge-tpu", "ipu-gc200"})
    check_random_episodes(std::string("memplace/malloc/mobilenet-v2@") + hardware + "-v2", 10);
}

TEST_CASE("malloc env: under the pinned dynamics the potential is the score") {
  // The potential's scale is 1 (the all-slowest latency is the pinned one), so every step reports
  // the exact pinned latency of the mapping so far, and its speedup.
  const auto env = make("memplace/malloc/resnet50-v2", {{"dynamics", "pinned"}});
  const auto& game = dynamic_cast<const MallocEnv&>(*env);
  const Discrete space = std::get<Discrete>(env->action_space());
  const ResetResult start = env->reset(7);
  const double compiler_fs = start.info.speedup * static_cast<double>(start.info.latency_fs);
  ObservationView obs = start.obs;
  double before = start.info.speedup;
  while (true) {
    const StepResult r = env->step(space.sample(env->rng(), obs.action_mask));
    const TimeFs exact = env->simulator().evaluate(game.mapping()).latency_fs;
    CHECK(r.info.latency_fs == exact);
    CHECK(r.info.speedup == doctest::Approx(compiler_fs / static_cast<double>(exact)));
    CHECK(r.reward == doctest::Approx(r.info.speedup - before));
    before = r.info.speedup;
    if (r.terminated) break;
    obs = r.obs;
  }
}

}  // namespace
}  // namespace memplace
