// Reference mappings and rectification: hand-computed toy answers and properties on every
// shipped workload.
#include <doctest/doctest.h>

#include <random>

#include "model/rectify.hpp"
#include "model/references.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::F;
using toy::ns;
using toy::S;

TEST_CASE("compiler mapping on the tight toy: greedy by benefit per byte") {
  // Benefits (all else in SLOW): A.o 17400 ns / 600 B, B.o 12000 / 600, C.o 100 / 10. A.o takes
  // FAST; B.o no longer fits beside it over steps 1-2; C.o (10 B at step 2) still does.
  const Simulator sim(toy::tight(), toy::hardware());
  const Mapping m = compiler_mapping(sim);
  CHECK(m == Mapping{S, F, S, S, S, F});
  const Evaluation e = sim.evaluate(m);
  CHECK(e.valid);
  CHECK(e.latency_fs == ns(605 + 6005 + 6005));
}

TEST_CASE("lower bound on the chain toy: bytes over the sum of bandwidths") {
  // A: 600 B / 1.1 GB/s = 545454545.45 fs (floor) vs 100 ns compute; B: compute 1000 ns wins;
  // C: 150 B -> 136363636 fs. Plus 5 ns overhead each.
  const Simulator sim(toy::chain(), toy::hardware());
  CHECK(lower_bound_fs(sim) == 545454545 + ns(5) + ns(1005) + 136363636 + ns(5));
  // Under `sum`, the fastest bandwidth: A 600 ns, B 1000 (compute), C 150.
  const Simulator sum(toy::chain(), toy::hardware(MemoryTimeCombine::sum));
  CHECK(lower_bound_fs(sum) == ns(605 + 1005 + 155));
}

TEST_CASE("rectify demotes the cheapest occupant of the peak, per byte") {
  const Simulator sim(toy::tight(), toy::hardware());
  // All activations in FAST: 1210 B at step 2. Demoting C.o costs -10 ns (it even helps), then
  // at the new peak (step 1) B.o costs 9700 ns / 600 B < A.o 15100 / 600.
  const Rectified r = rectify(sim, Mapping{S, F, S, F, S, F});
  CHECK(r.valid);
  CHECK(r.demotions == 2);
  CHECK(r.mapping == Mapping{S, F, S, S, S, S});
  // A valid mapping is left alone.
  const Rectified same = rectify(sim, Mapping{S, F, S, S, S, F});
  CHECK(same.demotions == 0);
  CHECK(same.mapping == Mapping{S, F, S, S, S, F});
}

TEST_CASE("rectify walks down a multi-level hierarchy") {
  const Simulator sim(toy::huge_weight(), toy::hardware_levels(3));
  // A's 5000 B weight fits neither FAST (1000) nor MID (2000): it ends in SLOW, after the
  // cheaper-per-byte small tensors were demoted first.
  const Rectified r = rectify(sim, Mapping{0, 0, 0, 0});
  CHECK(r.valid);
  CHECK(r.mapping[0] == 2);
  CHECK(r.demotions >= 2);
}

TEST_CASE("reference properties on every shipped workload") {
  const Hardware nnpi = load_hardware("nnpi");
  for (const std::string& name : embedded_workload_names()) {
    for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
      CAPTURE(name);
      const Simulator sim(load_workload(name), nnpi, {c});
      const Evaluation all_dram = sim.evaluate(all_slowest_mapping(sim));
      const Evaluation compiler = sim.evaluate(compiler_mapping(sim));
      const TimeFs bound = lower_bound_fs(sim);
      CHECK(all_dram.valid);
      CHECK(compiler.valid);
      CHECK(compiler.latency_fs <= all_dram.latency_fs);
      CHECK(bound <= compiler.latency_fs);
      // Random mappings, made valid by rectification, never beat the bound.
      std::mt19937_64 rng(3);
      for (int i = 0; i < 20; ++i) {
        Mapping m(sim.num_tensors());
        for (MemoryIndex& x : m)
          x = static_cast<MemoryIndex>(rng() % sim.num_memories());
        const Rectified r = rectify(sim, m);
        REQUIRE(r.valid);
        const Evaluation e = sim.evaluate(r.mapping);
        REQUIRE(e.valid);
        REQUIRE(bound <= e.latency_fs);
      }
    }
  }
}

TEST_CASE("compiler mapping is valid and the bound holds on random DAGs") {
  std::mt19937_64 rng(11);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const Workload w = toy::random_workload(1000 + seed, 1 + seed % 40);
    for (std::size_t levels = 1; levels <= 4; ++levels) {
      Hardware hw = toy::hardware_levels(levels);
      hw.memory_time = seed % 2 == 0 ? MemoryTimeCombine::max : MemoryTimeCombine::sum;
      const Simulator sim(w, hw);
      if (!sim.evaluate(all_slowest_mapping(sim)).valid) continue;
      const Evaluation compiler = sim.evaluate(compiler_mapping(sim));
      REQUIRE(compiler.valid);
      const TimeFs bound = lower_bound_fs(sim);
      REQUIRE(bound <= compiler.latency_fs);
      for (int i = 0; i < 20; ++i) {
        Mapping m(sim.num_tensors());
        for (MemoryIndex& x : m)
          x = static_cast<MemoryIndex>(rng() % levels);
        const Evaluation e = sim.evaluate(m);
        if (e.valid) REQUIRE(bound <= e.latency_fs);
        const Rectified r = rectify(sim, m);
        REQUIRE(r.valid);
        REQUIRE(sim.evaluate(r.mapping).valid);
      }
    }
  }
}

}  // namespace
}  // namespace memplace
