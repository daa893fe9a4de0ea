// Time to prove the exact optimum (optimum/) on one core. Targets (issue "Exact optimum",
// docs/optimum.md): resnet50 and bert-base proven optimal in under 2 minutes each; resnet101 within
// 0.5 % of its bound in 10 minutes (that one is a run of `memplace optimum`, not a benchmark).
// Each solve runs once: it takes seconds, and CBC's single-thread search does the same work every
// time.
#include <benchmark/benchmark.h>

#include "bench/bench_main.hpp"

#include <stdexcept>
#include <string>

#include "model/simulator.hpp"
#include "optimum/solver.hpp"

namespace memplace {
namespace {

void solve(benchmark::State& state, const std::string& workload, MemoryTimeCombine rule) {
  SimulatorOptions options;
  options.memory_time = rule;
  const Simulator sim(load_workload(workload), load_hardware("nnpi"), options);
  optimum::SolverOptions solver;
  solver.time_limit_s = 120;
  for (auto _ : state) {
    const optimum::Solution s = optimum::solve(sim, solver);
    if (s.status != optimum::Status::optimal)
      state.SkipWithError(("not proven in 120 s: " + std::string(status_name(s.status))).c_str());
    state.counters["nodes"] = static_cast<double>(s.nodes);
    state.counters["gap"] = s.gap();
  }
}

}  // namespace

void register_benchmarks() {
  for (const std::string w : {"resnet50", "inception-v3", "gpt2-small", "bert-base"}) {
    benchmark::RegisterBenchmark(("optimum/" + w + "/max").c_str(), solve, w,
                                 MemoryTimeCombine::max)
        ->Iterations(1)
        ->Unit(benchmark::kSecond)
        ->UseRealTime();
  }
}

}  // namespace memplace
