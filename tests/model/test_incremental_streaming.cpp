// The incremental streaming evaluator agrees exactly with the full streaming evaluation, layer by
// layer, after every one of many random moves: on random DAGs (1-4 memories, max and sum, several
// lookaheads, with and without the overhead as DMA time) and on shipped workloads from their
// compiler mappings (where fast memory is tight and copies compete for room).
#include <doctest/doctest.h>

#include <random>

#include "env/registry.hpp"
#include "model/dynamics/incremental_streaming.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::kStreaming;

void require_agree(const Simulator& sim, const IncrementalStreamingEvaluator& inc,
                   Evaluation& full) {
  sim.evaluate(inc.mapping(), full);
  REQUIRE(inc.latency_fs() == full.latency_fs);
  REQUIRE(inc.valid() == full.valid);
  for (std::size_t l = 0; l < sim.num_layers(); ++l)
    REQUIRE(inc.layer_fs(l) == full.layer_fs[l]);
}

// `moves` random moves from `start` (each one a tensor to a random memory, a third of them to
// the fastest, where room is scarce), checked after each one. Returns how many moves re-ran
// fewer than all layers.
std::size_t check_moves(const Simulator& sim, const Mapping& start, std::mt19937_64& rng,
                        std::size_t moves) {
  IncrementalStreamingEvaluator inc(sim, start);
  Evaluation full;
  require_agree(sim, inc, full);
  std::uniform_int_distribution<std::size_t> tensor(0, sim.num_tensors() - 1);
  std::uniform_int_distribution<int> memory(0, static_cast<int>(sim.num_memories()) - 1);
  std::size_t partial = 0;
  for (std::size_t k = 0; k < moves; ++k) {
    const std::size_t t = tensor(rng);
    const auto m = static_cast<MemoryIndex>(k % 3 == 0 ? 0 : memory(rng));
    inc.move(t, m);
    require_agree(sim, inc, full);
    partial += inc.last_rerun_from() > 0;
  }
  return partial;
}

TEST_CASE("incremental streaming: equals the full evaluation after every move, random DAGs") {
  std::mt19937_64 rng(17);
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    const Workload w = toy::random_workload(300 + seed, 2 + seed % 30);
    for (std::size_t levels = 1; levels <= 4; ++levels) {
      for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        for (std::int64_t lookahead : {0, 1, 3, 16}) {
          Hardware hw = toy::hardware_levels(levels);
          hw.memory_time = c;
          hw.dma.lookahead = lookahead;
          hw.dma.during_overhead = seed % 2 == 0;
          const Simulator sim(w, hw, kStreaming);
          check_moves(sim, toy::random_mapping(rng, sim.num_tensors(), levels), rng, 30);
        }
      }
    }
  }
}

// The full evaluation takes the bytes in use from the pinned kernel's sweep (each kernel its
// own), the incremental evaluator counts them itself: the three agree, up to 8 memories (the
// vector kernel's wide sweep).
TEST_CASE("incremental streaming: both kernels' full evaluations agree with it, 1-8 memories") {
  std::mt19937_64 rng(29);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Workload w = toy::random_workload(500 + seed, 2 + seed % 30);
    for (std::size_t levels = 1; levels <= 8; ++levels) {
      for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        Hardware hw = toy::hardware_levels(levels);
        hw.memory_time = c;
        hw.dma.lookahead = 1 + static_cast<std::int64_t>(seed % 5);
        const Simulator vector(w, hw, kStreaming);
        SimulatorOptions scalar_options = kStreaming;
        scalar_options.scalar_kernel = true;
        const Simulator scalar(w, hw, scalar_options);
        Evaluation full;
        for (int trial = 0; trial < 5; ++trial) {
          const Mapping m = toy::random_mapping(rng, vector.num_tensors(), levels);
          const IncrementalStreamingEvaluator inc(vector, m);
          require_agree(vector, inc, full);
          require_agree(scalar, inc, full);
        }
      }
    }
  }
}

TEST_CASE("incremental streaming: equals the full evaluation after every move, shipped workloads") {
  std::mt19937_64 rng(23);
  for (const std::string name : {"resnet50", "bert-base", "gpt2-small", "inception-v3"}) {
    CAPTURE(name);
    for (std::int64_t lookahead : {4, 16}) {
      Hardware hw = load_hardware("nnpi");
      hw.dma.lookahead = lookahead;
      const Simulator sim(load_workload(name), hw, kStreaming);
      // Most moves of a tight mapping change the plan somewhere but not at the start: the
      // increment must both agree and, usually, re-run only a suffix.
      const std::size_t moves = 150;
      const std::size_t partial = check_moves(sim, compiler_mapping(sim), rng, moves);
      CHECK(partial > moves / 4);
    }
  }
}

TEST_CASE("incremental streaming: under the pinned dynamics it is the pinned evaluator") {
  const Simulator sim(load_workload("resnet50"), load_hardware("nnpi"));
  std::mt19937_64 rng(29);
  IncrementalStreamingEvaluator inc(sim, compiler_mapping(sim));
  IncrementalEvaluator pinned(sim, compiler_mapping(sim));
  for (int k = 0; k < 50; ++k) {
    const std::size_t t = rng() % sim.num_tensors();
    const auto m = static_cast<MemoryIndex>(rng() % sim.num_memories());
    inc.move(t, m);
    pinned.move(t, m);
    REQUIRE(inc.latency_fs() == pinned.latency_fs());
  }
}

TEST_CASE("incremental streaming: a bad tensor or memory throws and changes nothing") {
  const Simulator sim(load_workload("resnet50"), load_hardware("nnpi"), kStreaming);
  IncrementalStreamingEvaluator inc(sim, compiler_mapping(sim));
  const TimeFs before = inc.latency_fs();
  CHECK_THROWS_AS(inc.move(sim.num_tensors(), 0), std::out_of_range);
  CHECK_THROWS_AS(inc.move(0, static_cast<MemoryIndex>(sim.num_memories())), std::out_of_range);
  CHECK(inc.latency_fs() == before);
  Evaluation full;
  require_agree(sim, inc, full);
}

}  // namespace
}  // namespace memplace
