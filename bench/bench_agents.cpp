// Evaluations per second of every registered agent on bert-base, through the real trainer on
// every core (items_per_second; docs/performance.md). One iteration is a whole short run, so the
// figure includes the agent's own work (GNN updates, population bookkeeping) and checkpoints.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <filesystem>
#include <string>

#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "bench/bench_main.hpp"

namespace memplace {
namespace {

namespace fs = std::filesystem;

void BM_Agent(benchmark::State& state, const std::string& agent, const std::string& workload) {
  const fs::path root =
      fs::temp_directory_path() / ("memplace-bench-" + std::to_string(::getpid()));
  int run = 0;
  std::uint64_t evaluations = 0;
  for (auto _ : state) {
    agents::TrainConfig config;
    config.agent = agent;
    config.model.workload = workload;
    config.budget = agents::find_agent(agent).benchmark_budget;
    config.checkpoint_every = config.budget;  // one checkpoint, at the end
    agents::Trainer trainer(config, root / std::to_string(run++));
    evaluations += trainer.run().evaluations;
  }
  fs::remove_all(root);
  state.SetItemsProcessed(static_cast<std::int64_t>(evaluations));
}

}  // namespace

void register_benchmarks() {
  for (const agents::AgentInfo& info : agents::agent_registry()) {
    benchmark::RegisterBenchmark(("Agent/" + info.name + "/bert-base").c_str(), BM_Agent, info.name,
                                 std::string("bert-base"))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
  }
}

}  // namespace memplace
