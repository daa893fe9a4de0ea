// The capacity-aware bound of the streaming dynamics (optimum/streaming_bound.hpp) is a bound:
// with the placement fixed it is at most that mapping's streaming latency, over random DAGs and
// valid mappings; free, it is at most every valid mapping's latency (brute force on small
// workloads), and so is the bound of the MIP `solve` runs under streaming, whose mapping is
// re-scored by the simulator.
#include <doctest/doctest.h>

#include <random>

#include "model/references.hpp"
#include "model/simulator.hpp"
#include "optimum/solver.hpp"
#include "optimum/streaming_bound.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::kStreaming;

Simulator toy_streaming(std::uint64_t seed, std::size_t layers, std::size_t levels,
                        MemoryTimeCombine combine, std::int64_t lookahead) {
  Hardware hw = toy::hardware_levels(levels);
  hw.memory_time = combine;
  hw.dma.lookahead = lookahead;
  hw.dma.during_overhead = seed % 2 == 0;
  return Simulator(toy::random_workload(seed, layers), hw, kStreaming);
}

TEST_CASE("streaming bound: at most the latency of the mapping it is fixed to, random DAGs") {
  std::mt19937_64 rng(41);
  std::size_t checked = 0;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    for (std::size_t levels : {2, 3}) {
      for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        for (std::int64_t lookahead : {1, 3}) {
          const Simulator sim = toy_streaming(500 + seed, 3 + seed % 20, levels, c, lookahead);
          if (!sim.evaluate(compiler_mapping(sim)).valid) continue;  // no valid mapping
          const TimeFs free_bound = optimum::streaming_bound_fs(sim);
          CHECK(static_cast<double>(free_bound) >=
                static_cast<double>(compute_bound_fs(sim)) * (1 - 2e-6));
          std::vector<Mapping> mappings = {compiler_mapping(sim)};
          for (int trial = 0; trial < 40 && mappings.size() < 6; ++trial) {
            Mapping m = toy::random_mapping(rng, sim.num_tensors(), levels);
            if (sim.evaluate(m).valid) mappings.push_back(std::move(m));
          }
          for (const Mapping& m : mappings) {
            const TimeFs latency = sim.evaluate(m).latency_fs;
            const TimeFs fixed = optimum::streaming_bound_fs(sim, m);
            REQUIRE(fixed <= latency);
            REQUIRE(static_cast<double>(free_bound) <= static_cast<double>(fixed) * (1 + 1e-6));
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked > 300);
}

// Every mapping of a small workload, by counting in base M.
TimeFs brute_force_best(const Simulator& sim) {
  Mapping m(sim.num_tensors(), 0);
  TimeFs best = INT64_MAX;
  while (true) {
    const Evaluation e = sim.evaluate(m);
    if (e.valid) best = std::min(best, e.latency_fs);
    std::size_t i = 0;
    while (i < m.size() && ++m[i] == sim.num_memories())
      m[i++] = 0;
    if (i == m.size()) return best;
  }
}

TEST_CASE("streaming bound: the LP and the relaxation's MIP bound every mapping, brute force") {
  std::size_t checked = 0;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    const std::size_t levels = 2 + seed % 2, layers = levels == 2 ? 5 : 3;
    const auto combine = seed % 4 < 2 ? MemoryTimeCombine::max : MemoryTimeCombine::sum;
    const Simulator sim = toy_streaming(700 + seed, layers, levels, combine, 1 + seed % 3);
    const TimeFs best = brute_force_best(sim);
    if (best == INT64_MAX) continue;  // no valid mapping
    ++checked;
    CHECK(optimum::streaming_bound_fs(sim) <= best);
    optimum::SolverOptions options;
    options.time_limit_s = 30;
    const optimum::Solution s = optimum::solve(sim, options);
    CHECK_FALSE(s.exact);
    REQUIRE(s.mapping);
    CHECK(s.bound_fs <= best);
    CHECK(s.latency_fs == sim.evaluate(*s.mapping).latency_fs);
    CHECK(s.latency_fs >= best);
  }
  CHECK(checked >= 10);
}

TEST_CASE("streaming bound: a pinned simulator or an invalid mapping is refused") {
  const Simulator pinned(toy::random_workload(1, 4), toy::hardware_levels(2));
  CHECK_THROWS_AS(optimum::streaming_bound_fs(pinned), std::invalid_argument);
  const Simulator sim(toy::huge_weight(), toy::hardware(), kStreaming);
  CHECK_THROWS_AS(optimum::streaming_bound_fs(sim, Mapping(sim.num_tensors(), 0)),
                  std::runtime_error);
  CHECK_THROWS_AS(optimum::streaming_bound_fs(sim, Mapping(1, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace memplace
