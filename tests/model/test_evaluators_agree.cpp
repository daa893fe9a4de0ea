// Properties over random inputs: the fast full evaluator matches a naive transcription of the cost
// model, and the incremental evaluator matches the full one exactly, on random DAGs and on every
// shipped workload.
#include <doctest/doctest.h>

#include <random>

#include "model/incremental.hpp"
#include "model/simulator.hpp"
#include "tests/support/naive_evaluator.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

TEST_CASE("both evaluation kernels match the naive cost model on random DAGs") {
  std::mt19937_64 rng(7);
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const Workload w = toy::random_workload(seed, 1 + seed % 25);
    for (std::size_t levels = 1; levels <= 8; ++levels) {
      for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        Hardware hw = toy::hardware_levels(levels);
        hw.memory_time = c;
        const Simulator vector(w, hw);
        const Simulator scalar(w, hw, {.memory_time = std::nullopt, .scalar_kernel = true});
        Evaluation a;
        Evaluation b;
        for (int trial = 0; trial < 10; ++trial) {
          const Mapping m = toy::random_mapping(rng, vector.num_tensors(), levels);
          vector.evaluate(m, a);
          scalar.evaluate(m, b);
          const naive::Result slow = naive::evaluate(w, hw, m);
          REQUIRE(a.latency_fs == slow.latency_fs);
          REQUIRE(a.peak_bytes == slow.peak_bytes);
          REQUIRE(a.valid == slow.valid);
          REQUIRE(a.layer_fs == b.layer_fs);
          REQUIRE(a.latency_fs == b.latency_fs);
          REQUIRE(a.peak_bytes == b.peak_bytes);
          REQUIRE(a.overflow_bytes == b.overflow_bytes);
          TimeFs sum = 0;
          for (TimeFs t : a.layer_fs)
            sum += t;
          REQUIRE(sum == a.latency_fs);
          // The incremental evaluator's peak step is the naive first peak.
          IncrementalEvaluator inc(vector, m);
          for (std::size_t mem = 0; mem < levels; ++mem) {
            REQUIRE(inc.peak_step(mem) == slow.peak_step[mem]);
          }
        }
      }
    }
  }
}

// Checks an incremental evaluator against a full evaluation of its mapping.
void require_agree(const Simulator& sim, IncrementalEvaluator& inc, Evaluation& scratch) {
  sim.evaluate(inc.mapping(), scratch);
  REQUIRE(inc.latency_fs() == scratch.latency_fs);
  REQUIRE(inc.valid() == scratch.valid);
  for (std::size_t m = 0; m < sim.num_memories(); ++m) {
    REQUIRE(inc.peak_bytes(m) == scratch.peak_bytes[m]);
    REQUIRE(inc.overflow_bytes(m) == scratch.overflow_bytes[m]);
  }
  REQUIRE(inc.total_overflow_bytes() == scratch.total_overflow_bytes());
}

// Random moves: each is previewed (and compared with a full evaluation of the moved mapping),
// then applied and compared again. Returns the number of moves checked.
std::size_t check_random_moves(const Simulator& sim, std::uint64_t seed, std::size_t mappings,
                               std::size_t moves_per_mapping) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> tensor(0, sim.num_tensors() - 1);
  std::uniform_int_distribution<int> memory(0, static_cast<int>(sim.num_memories()) - 1);
  Evaluation scratch;
  std::size_t checked = 0;
  for (std::size_t i = 0; i < mappings; ++i) {
    // Bias some mappings towards fast memories so that both valid and invalid states occur.
    Mapping start = toy::random_mapping(rng, sim.num_tensors(), sim.num_memories());
    if (i % 2 == 1) {
      for (MemoryIndex& x : start)
        x = rng() % 4 == 0 ? x : sim.slowest();
    }
    IncrementalEvaluator inc(sim, start);
    require_agree(sim, inc, scratch);
    for (std::size_t k = 0; k < moves_per_mapping; ++k) {
      const std::size_t t = tensor(rng);
      const auto m = static_cast<MemoryIndex>(memory(rng));
      Mapping moved(inc.mapping().begin(), inc.mapping().end());
      moved[t] = m;
      sim.evaluate(moved, scratch);
      const bool fits = inc.fits(t, m);
      const IncrementalEvaluator::Outcome preview = inc.preview(t, m);
      REQUIRE(preview.latency_fs == scratch.latency_fs);
      REQUIRE(inc.preview_latency(t, m) == scratch.latency_fs);
      REQUIRE(preview.valid == scratch.valid);
      REQUIRE(preview.overflow_bytes == scratch.total_overflow_bytes());
      // fits(t, m) asks whether t adds no overflow to memory m; when m is within capacity now,
      // that is exactly "m stays within capacity after the move".
      if (inc.overflow_bytes(m) == 0) REQUIRE(fits == (scratch.overflow_bytes[m] == 0));
      if (scratch.overflow_bytes[m] == 0) REQUIRE(fits);
      inc.move(t, m);
      require_agree(sim, inc, scratch);
      ++checked;
    }
  }
  return checked;
}

TEST_CASE("incremental evaluator agrees with the full one on random DAGs") {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Workload w = toy::random_workload(100 + seed, 2 + seed % 30);
    for (std::size_t levels = 1; levels <= 4; ++levels) {
      Hardware hw = toy::hardware_levels(levels);
      hw.memory_time = seed % 2 == 0 ? MemoryTimeCombine::max : MemoryTimeCombine::sum;
      check_random_moves(Simulator(w, hw), seed, 5, 20);
    }
  }
}

TEST_CASE("incremental evaluator agrees with the full one on every shipped workload") {
  const Hardware nnpi = load_hardware("nnpi");
  for (const std::string& name : embedded_workload_names()) {
    for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
      CAPTURE(name);
      const Simulator sim(load_workload(name), nnpi, {c});
      // 10,000 fresh random mappings with one move each, then 20 random walks of 500 moves (so
      // errors that accumulate over many moves show up too).
      CHECK(check_random_moves(sim, 42, 10'000, 1) == 10'000);
      CHECK(check_random_moves(sim, 43, 20, 500) == 10'000);
    }
  }
}

TEST_CASE("incremental evaluator rejects bad tensors and memories") {
  const Simulator sim(toy::chain(), toy::hardware());
  IncrementalEvaluator inc(sim);
  CHECK_THROWS_AS(inc.move(6, 0), std::out_of_range);
  CHECK_THROWS_AS(inc.move(0, 2), std::out_of_range);
  CHECK_THROWS_AS(inc.preview(99, 0), std::out_of_range);
  CHECK_THROWS_AS(inc.reset(Mapping(3, 0)), std::invalid_argument);
  CHECK(inc.latency_fs() == sim.evaluate(uniform_mapping(3, 1)).latency_fs);
}

}  // namespace
}  // namespace memplace
