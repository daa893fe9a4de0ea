// Hand-computed answers on toy workloads (numbers in tests/support/toy.hpp: FAST 1 B = 1 ns, SLOW 1
// B = 10 ns, 1 MAC = 1 ns, 5 ns overhead per layer).
#include <doctest/doctest.h>

#include <algorithm>

#include "base/rng.hpp"
#include "model/incremental.hpp"
#include "model/memory_profile.hpp"
#include "model/simulator.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::F;
using toy::ns;
using toy::S;

Mapping map_of(std::initializer_list<MemoryIndex> values) {
  return Mapping(values);
}

TEST_CASE("chain: all-SLOW, all-FAST and a mixed mapping") {
  const Simulator sim(toy::chain(), toy::hardware());
  SUBCASE("all SLOW") {
    // A: ext 100 + w 200 + o 300 bytes in SLOW = 6000 ns > 100 ns compute.
    // B: w 100 + o 100 + in 300 = 5000 ns > 1000. C: o 50 + in 100 = 1500 ns > 50.
    const Evaluation e = sim.evaluate(map_of({S, S, S, S, S, S}));
    CHECK(e.layer_fs == std::vector<TimeFs>{ns(6005), ns(5005), ns(1505)});
    CHECK(e.latency_fs == ns(12515));
    // Weights 300 pinned; live outputs: step 0: A 300; step 1: A 300 + B 100; step 2: B + C 150.
    CHECK(e.peak_bytes == std::vector<std::int64_t>{0, 700});
    CHECK(IncrementalEvaluator(sim, uniform_mapping(3, S)).peak_step(S) == 1);
    CHECK(e.valid);
  }
  SUBCASE("all FAST") {
    // A: FAST 500 ns, but the graph input stays in SLOW: 1000 ns. B: 500 ns < 1000 compute.
    const Evaluation e = sim.evaluate(map_of({F, F, F, F, F, F}));
    CHECK(e.layer_fs == std::vector<TimeFs>{ns(1005), ns(1005), ns(155)});
    CHECK(e.latency_fs == ns(2165));
    CHECK(e.peak_bytes == std::vector<std::int64_t>{700, 0});
    CHECK(e.valid);
  }
  SUBCASE("mixed") {
    // A.w F, A.o S, B.w S, B.o F, C.w S, C.o S.
    const Evaluation e = sim.evaluate(map_of({F, S, S, F, S, S}));
    CHECK(e.layer_fs == std::vector<TimeFs>{ns(4005), ns(4005), ns(505)});
    CHECK(e.latency_fs == ns(8515));
    CHECK(e.peak_bytes == std::vector<std::int64_t>{300, 400});
    CHECK(e.valid);
  }
}

TEST_CASE("chain: memory time combined by sum") {
  const Simulator sim(toy::chain(), toy::hardware(MemoryTimeCombine::sum));
  // A: FAST 500 + SLOW 1000 = 1500 ns; B: 500 < 1000 compute; C: 150.
  const Evaluation e = sim.evaluate(map_of({F, F, F, F, F, F}));
  CHECK(e.latency_fs == ns(1505 + 1005 + 155));
  // The option overrides the hardware file.
  const Simulator over(toy::chain(), toy::hardware(), {MemoryTimeCombine::sum});
  CHECK(over.evaluate(map_of({F, F, F, F, F, F})).latency_fs == ns(2665));
}

TEST_CASE("diamond: live ranges end at the last consumer") {
  const Simulator sim(toy::diamond(), toy::hardware());
  // Outputs: A 200 live [0, 2] (read by B and C), B 100 [1, 3], C 100 [2, 3], D 50 [3, 3].
  const Evaluation e = sim.evaluate(uniform_mapping(4, F));
  // Weights 400; live: s0 200, s1 300, s2 400, s3 250 -> 800.
  CHECK(e.peak_bytes[F] == 800);
  CHECK(IncrementalEvaluator(sim, uniform_mapping(4, F)).peak_step(F) == 2);
  CHECK(e.valid);
  // Per layer (all FAST, 1 B = 1 ns): A w100+o200 = 300; B 100+100+in200 = 400; C 400;
  // D 100+50+in 100+100 = 350.
  CHECK(e.layer_fs == std::vector<TimeFs>{ns(305), ns(405), ns(405), ns(355)});
}

TEST_CASE("residual: the skip keeps the block input alive across the block") {
  const Simulator sim(toy::residual(), toy::hardware());
  // A 400 live [0, 2], B 300 [1, 2], C 100 [2, 2]: 800 at step 2 in FAST.
  Evaluation e = sim.evaluate(uniform_mapping(3, F));
  CHECK(e.peak_bytes[F] == 800);
  CHECK(e.valid);
  // Moving B's output to SLOW: C reads B (300 B) from SLOW = 3000 ns and A (400) from FAST.
  const Mapping m = map_of({F, F, F, S, F, F});
  e = sim.evaluate(m);
  CHECK(e.layer_fs[2] == ns(3005));
  CHECK(e.layer_fs[1] == ns(3005));  // B reads A (400 ns from FAST), writes 300 B to SLOW
  CHECK(e.peak_bytes == std::vector<std::int64_t>{500, 300});
}

TEST_CASE("a weight that fits in no fast memory makes the mapping invalid") {
  const Simulator sim(toy::huge_weight(), toy::hardware());
  const Evaluation e = sim.evaluate(map_of({F, F, S, F}));
  CHECK_FALSE(e.valid);
  // FAST: 5000 pinned + peak live (A 10 live [0, 1] and B 10 at step 1) = 5020.
  CHECK(e.peak_bytes[F] == 5020);
  CHECK(e.overflow_bytes == std::vector<std::int64_t>{4020, 0});
  CHECK(e.total_overflow_bytes() == 4020);
  CHECK(sim.evaluate(map_of({S, F, F, F})).valid);
}

TEST_CASE("tight capacity: two activations that fit alone but not together") {
  const Simulator sim(toy::tight(), toy::hardware());
  // A 600 live [0, 2], B 600 live [1, 2]: both in FAST need 1200 > 1000 at steps 1-2.
  const Evaluation both = sim.evaluate(map_of({S, F, S, F, S, S}));
  CHECK_FALSE(both.valid);
  CHECK(both.peak_bytes[F] == 1200);
  CHECK(both.overflow_bytes[F] == 200);
  CHECK(IncrementalEvaluator(sim, Mapping{S, F, S, F, S, S}).peak_step(F) == 1);
  CHECK(sim.evaluate(map_of({S, F, S, S, S, S})).valid);
  CHECK(sim.evaluate(map_of({S, S, S, F, S, S})).valid);
}

TEST_CASE("time rounds up to whole femtoseconds, per tensor") {
  CHECK(duration_fs(0, 3.0) == 0);
  CHECK(duration_fs(1, 3e15) == 1);  // a third of a femtosecond rounds up
  CHECK(duration_fs(3, 3e15) == 1);
  CHECK(duration_fs(4, 3e15) == 2);
  CHECK(duration_fs(1, 1e9) == ns(1));
}

TEST_CASE("evaluate rejects mappings of the wrong shape with a clear message") {
  const Simulator sim(toy::chain(), toy::hardware());
  CHECK_THROWS_WITH_AS(sim.evaluate(Mapping(5, 0)),
                       "mapping has 5 entries; workload 'chain' needs 6 (2 per layer: weight, "
                       "activation)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(sim.evaluate(map_of({0, 0, 0, 2, 0, 0})),
                       "mapping entry 3 (activation of layer 'B') is memory 2; hardware 'toy' has "
                       "memories 0..1",
                       std::invalid_argument);
}

TEST_CASE("any number of memories works (1 to 4 levels)") {
  for (std::size_t levels = 1; levels <= 4; ++levels) {
    CAPTURE(levels);
    const Simulator sim(toy::chain(), toy::hardware_levels(levels));
    const Evaluation e = sim.evaluate(uniform_mapping(3, static_cast<MemoryIndex>(levels - 1)));
    CHECK(e.peak_bytes.size() == levels);
    CHECK(e.valid);
  }
  // Three levels, everything in MID (1 byte = 5 ns): A: w 200 + o 300 = 2500 ns vs graph input
  // from the slowest (SLOW, 1000 ns): 2505. B: 500 * 5 = 2500 > 1000 compute. C: 150 * 5 = 750.
  const Simulator sim(toy::chain(), toy::hardware_levels(3));
  CHECK(sim.evaluate(uniform_mapping(3, 1)).latency_fs == ns(2505 + 2505 + 755));
}

}  // namespace
}  // namespace memplace

namespace memplace {
namespace {

TEST_CASE("memory profile: bytes per memory at every step, hand-computed on the toys") {
  const Simulator chain(toy::chain(), toy::hardware());
  // All SLOW: weights 300 pinned; outputs A 300 at steps 0-1, B 100 at 1-2, C 50 at 2.
  const MemoryProfile slow = memory_profile(chain, uniform_mapping(3, 1));
  CHECK(slow.bytes[0] == std::vector<std::int64_t>{0, 0, 0});
  CHECK(slow.bytes[1] == std::vector<std::int64_t>{600, 700, 450});
  const Simulator diamond(toy::diamond(), toy::hardware());
  const MemoryProfile fast = memory_profile(diamond, uniform_mapping(4, 0));
  CHECK(fast.bytes[0] == std::vector<std::int64_t>{600, 700, 800, 650});
  CHECK_THROWS_AS(memory_profile(diamond, uniform_mapping(3, 0)), std::invalid_argument);
}

TEST_CASE("memory profile: its maximum is the evaluation's peak, on random mappings") {
  const Simulator sim(toy::diamond(), toy::hardware());
  Rng rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    Mapping m(sim.num_tensors());
    for (MemoryIndex& memory : m)
      memory = static_cast<MemoryIndex>(rng.uniform(sim.num_memories()));
    const MemoryProfile profile = memory_profile(sim, m);
    const Evaluation e = sim.evaluate(m);
    for (std::size_t k = 0; k < sim.num_memories(); ++k)
      CHECK(*std::max_element(profile.bytes[k].begin(), profile.bytes[k].end()) == e.peak_bytes[k]);
  }
}

}  // namespace
}  // namespace memplace
