// The exact optimum (optimum/): the MIP agrees with the simulator on every mapping, its
// optimum equals brute force on toy problems, nothing found by search beats it, and its
// certificates round-trip and refuse tampering.
#include <doctest/doctest.h>

#include <fstream>
#include <limits>
#include <random>

#include "agents/training/trainer.hpp"
#include "model/inputs/workload.hpp"
#include "model/references.hpp"
#include "optimum/certificate.hpp"
#include "optimum/formulation.hpp"
#include "optimum/solver.hpp"
#include "tests/support/agent_harness.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using optimum::Status;

// Uniform over memories, or (`slow_bias`) half of the tensors in the slowest memory, so that
// small random mappings are often valid.
Mapping random_mapping(const Simulator& sim, std::mt19937_64& rng, bool slow_bias = false) {
  std::uniform_int_distribution<int> memory(0, static_cast<int>(sim.num_memories()) - 1);
  Mapping m(sim.num_tensors());
  for (MemoryIndex& x : m)
    x = slow_bias && rng() % 2 ? sim.slowest() : static_cast<MemoryIndex>(memory(rng));
  return m;
}

// The best valid latency over every mapping (0 if none is valid).
TimeFs brute_force_optimum(const Simulator& sim) {
  Mapping m(sim.num_tensors(), 0);
  TimeFs best = 0;
  Evaluation eval;
  while (true) {
    sim.evaluate(m, eval);
    if (eval.valid && (best == 0 || eval.latency_fs < best)) best = eval.latency_fs;
    std::size_t i = 0;
    while (i < m.size() && ++m[i] == sim.num_memories())
      m[i++] = 0;
    if (i == m.size()) return best;
  }
}

optimum::SolverOptions quick() {
  optimum::SolverOptions o;
  o.time_limit_s = 60;
  return o;
}

Simulator toy_simulator(std::uint64_t seed, std::size_t layers, std::size_t memories,
                        MemoryTimeCombine rule) {
  SimulatorOptions options;
  options.memory_time = rule;
  return Simulator(toy::random_workload(seed, layers), toy::hardware_levels(memories), options);
}

TEST_CASE("optimum: a mapping's MIP point is feasible iff the mapping is valid, at its latency") {
  std::mt19937_64 rng(11);
  for (const MemoryTimeCombine rule : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
    std::size_t valid = 0, invalid = 0, tight = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const Simulator sim = toy_simulator(seed, 3 + seed % 10, 2 + seed % 3, rule);
      const optimum::MipFormulation f = optimum::build_formulation(sim);
      CAPTURE(seed);
      for (int trial = 0; trial < 200; ++trial) {
        const Mapping m = random_mapping(sim, rng, trial % 2 == 0);
        const Evaluation eval = sim.evaluate(m);
        std::vector<double> x = f.point(sim, m);
        // Exact: every coefficient is an integer times 2^-20.
        REQUIRE(f.feasible(x) == eval.valid);
        REQUIRE(f.latency_fs(x) == static_cast<double>(eval.latency_fs));
        (eval.valid ? valid : invalid) += 1;
        // No layer time can be lower than the simulator's: one unit less breaks a row.
        for (std::size_t l = 0; l < sim.num_layers() && eval.valid; ++l) {
          const int c = f.layer_time_column[l];
          if (c < 0 || eval.layer_fs[l] - sim.overhead_fs() == sim.compute_fs(l)) continue;
          x[static_cast<std::size_t>(c)] -= optimum::kUnitsPerFs;
          CHECK_FALSE(f.feasible(x));
          x[static_cast<std::size_t>(c)] += optimum::kUnitsPerFs;
          ++tight;
        }
      }
    }
    // Both sides of the capacity rows, and memory-bound layers, were seen.
    CHECK(valid > 100);
    CHECK(invalid > 100);
    CHECK(tight > 100);
  }
}

TEST_CASE("optimum: equals brute force for max and sum on 2, 3 and 4 memories") {
  struct Size {
    std::size_t memories, layers;
  };
  // 2^14, 3^10 and 4^8 mappings.
  for (const Size size : {Size{2, 7}, Size{3, 5}, Size{4, 4}}) {
    for (const MemoryTimeCombine rule : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const Simulator sim =
            toy_simulator(100 * size.memories + seed, size.layers, size.memories, rule);
        CAPTURE(size.memories);
        CAPTURE(combine_name(rule));
        CAPTURE(seed);
        const TimeFs best = brute_force_optimum(sim);
        const optimum::Solution s = optimum::solve(sim, quick());
        if (best == 0) {
          CHECK(s.status == Status::infeasible);
          CHECK_FALSE(s.mapping);
          continue;
        }
        REQUIRE(s.mapping);
        CHECK(s.status == Status::optimal);
        CHECK(s.latency_fs == best);
        CHECK(sim.evaluate(*s.mapping).valid);
        CHECK(s.bound_fs <= s.latency_fs);
        CHECK(s.gap() < 1e-9);
        CHECK(s.solver_objective_fs == doctest::Approx(static_cast<double>(best)).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("optimum: no random mapping or simulated-annealing run beats the proven optimum") {
  testing::TempDir dir;
  std::mt19937_64 rng(5);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    const Workload workload = toy::random_workload(500 + seed, 14);
    const Hardware hardware = toy::hardware_levels(3);
    const Simulator sim(workload, hardware);
    const optimum::Solution s = optimum::solve(sim, quick());
    REQUIRE(s.status == Status::optimal);
    REQUIRE(s.mapping);
    CHECK(sim.evaluate(*s.mapping).valid);
    CHECK(s.latency_fs <= sim.evaluate(compiler_mapping(sim)).latency_fs);
    CHECK(s.bound_fs >= lower_bound_fs(sim));
    Evaluation eval;
    for (int trial = 0; trial < 20000; ++trial) {
      sim.evaluate(random_mapping(sim, rng), eval);
      if (eval.valid) REQUIRE(eval.latency_fs >= s.latency_fs);
    }
    testing::ToyProblem toy;
    toy.workload = dir.path / ("w" + std::to_string(seed) + ".yaml");
    toy.hardware = dir.path / "hw.yaml";
    workload.save(toy.workload);
    {
      std::ofstream out(toy.hardware);
      out << hardware.to_yaml();
    }
    const agents::TrainResult sa = testing::train_on(toy, "sa", 4000, seed, 1, dir.path);
    REQUIRE(sa.best_mapping);
    CHECK(sa.best_latency_fs >= s.latency_fs);
  }
}

TEST_CASE("optimum: the proven optimum does not depend on the number of threads") {
  const Simulator sim = toy_simulator(77, 40, 3, MemoryTimeCombine::max);
  optimum::SolverOptions one = quick(), two = quick();
  two.threads = 2;
  const optimum::Solution a = optimum::solve(sim, one);
  const optimum::Solution b = optimum::solve(sim, two);
  REQUIRE(a.status == Status::optimal);
  REQUIRE(b.status == Status::optimal);
  CHECK(a.latency_fs == b.latency_fs);
}

TEST_CASE("optimum: no valid mapping is reported as infeasible") {
  // A 5000-byte weight fits in neither FAST (1000 B) nor MID (2000 B).
  const Simulator sim(toy::huge_weight(), toy::hardware_levels(2));
  const optimum::Solution s = optimum::solve(sim, quick());
  CHECK(s.status == Status::infeasible);
  CHECK_FALSE(s.mapping);
}

TEST_CASE("optimum: stopped by its caller, it keeps the best mapping so far and a true bound") {
  const Simulator sim = toy_simulator(9, 60, 3, MemoryTimeCombine::max);
  int calls = 0;
  const optimum::Solution s = optimum::solve(sim, quick(), [&](const optimum::Progress& p) {
    CHECK(p.bound_fs <= p.incumbent_fs.value_or(std::numeric_limits<double>::infinity()));
    ++calls;
    return false;
  });
  CHECK(calls == 1);
  CHECK(s.status == Status::stopped);
  REQUIRE(s.mapping);  // at least the warm start
  CHECK(sim.evaluate(*s.mapping).valid);
  CHECK(s.latency_fs <= sim.evaluate(compiler_mapping(sim)).latency_fs);
  CHECK(s.bound_fs <= s.latency_fs);
  CHECK(s.bound_fs >= lower_bound_fs(sim));
}

TEST_CASE("optimum: bad options are refused with the option named") {
  const Simulator sim(toy::chain(), toy::hardware());
  auto refused = [&](optimum::SolverOptions o, const std::string& text) {
    CAPTURE(text);
    try {
      optimum::solve(sim, o);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(text) != std::string::npos);
    }
  };
  optimum::SolverOptions o;
  o.time_limit_s = -1;
  refused(o, "time limit");
  o.time_limit_s = std::numeric_limits<double>::quiet_NaN();
  refused(o, "time limit");
  o = {};
  o.relative_gap = 1;
  refused(o, "relative gap");
  o = {};
  o.threads = 0;
  refused(o, "threads");
  o = {};
  o.start = Mapping(3, 0);
  refused(o, "mapping has 3 entries");
}

}  // namespace
}  // namespace memplace
