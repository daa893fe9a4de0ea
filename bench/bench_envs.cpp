// Environment throughput (items_per_second = environment steps per second, wall clock).
// Targets (docs/performance.md): sequential env >= 3 M steps/s per core with the mask (-v0);
// single-step env on bert-base >= 400 k steps/s per core (-v0) and >= 150 k episodes/s (-v1,
// streaming); the malloc env >= 500 k steps/s on resnet50 and clone + step <= 2 us on
// bert-base; the vector env (16 copies) >= 1.7x faster on 2 threads than on 1.
//
// Random numbers are drawn before timing, so what is measured is the environment.
#include <benchmark/benchmark.h>

#include "bench/bench_main.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "env/registry.hpp"
#include "env/vector_env.hpp"

namespace memplace {
namespace {

constexpr std::size_t kTable = 4096;  // random numbers, reused cyclically

std::vector<std::uint32_t> random_table() {
  Rng rng(7);
  std::vector<std::uint32_t> table(kTable);
  for (std::uint32_t& x : table)
    x = static_cast<std::uint32_t>(rng.next() >> 32);
  return table;
}

// A uniformly chosen allowed action (0 when the mask allows nothing, after termination).
std::int64_t masked_choice(std::span<const std::uint8_t> mask, std::uint32_t random) {
  std::uint32_t allowed = 0;
  for (std::uint8_t m : mask)
    allowed += m;
  if (allowed == 0) return 0;
  std::uint32_t pick = random % allowed;
  for (std::size_t a = 0; a < mask.size(); ++a) {
    if (mask[a] != 0 && pick-- == 0) return static_cast<std::int64_t>(a);
  }
  return 0;
}

// Random MultiDiscrete actions (whole mappings), `count` of them, flat.
std::vector<std::int64_t> random_mappings(const Env& env, std::size_t count) {
  const Space action_space = env.action_space();
  const auto& space = std::get<MultiDiscrete>(action_space);
  Rng rng(11);
  std::vector<std::int64_t> out(count * space.nvec.size());
  for (std::size_t i = 0; i < count; ++i)
    space.sample(rng, std::span(out).subspan(i * space.nvec.size(), space.nvec.size()));
  return out;
}

// Random masked actions; the episode's reset is inside the timed loop.
void BM_MaskedEnv(benchmark::State& state, const std::string& id) {
  auto env = make(id);
  const std::vector<std::uint32_t> table = random_table();
  ObservationView obs = env->reset(0).obs;
  std::size_t i = 0;
  for (auto _ : state) {
    const StepResult r = env->step(masked_choice(obs.action_mask, table[i++ % kTable]));
    benchmark::DoNotOptimize(r.reward);
    obs = r.terminated ? env->reset().obs : r.obs;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["episode"] = static_cast<double>(env->episode_length());
}

// What a tree search does at every node: clone a state and step the copy once (a random masked
// action). The states are `spread` states of one random episode, evenly spaced, visited in turn:
// 8 stay in the cache (a search near its root), every state of the episode does not (a search
// whose tree spans the episode).
void BM_CloneAndStep(benchmark::State& state, const std::string& id, std::size_t spread) {
  auto env = make(id);
  const std::vector<std::uint32_t> table = random_table();
  std::vector<std::unique_ptr<Env>> states;
  ObservationView obs = env->reset(0).obs;
  for (std::size_t i = 0;; ++i) {
    states.push_back(env->clone());
    const StepResult r = env->step(masked_choice(obs.action_mask, table[i % kTable]));
    if (r.terminated) break;
    obs = r.obs;
  }
  spread = std::min(spread, states.size());
  std::size_t i = 0;
  for (auto _ : state) {
    const Env& from = *states[i % spread * states.size() / spread];
    const std::unique_ptr<Env> copy = from.clone();
    const StepResult r =
        copy->step(masked_choice(copy->observation().action_mask, table[i % kTable]));
    benchmark::DoNotOptimize(r.reward);
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["states"] = static_cast<double>(spread);
}

// A whole episode per iteration: reset, then one step with a pre-drawn random mapping.
void BM_SingleStepEnv(benchmark::State& state, const std::string& workload,
                      const std::string& version) {
  auto env = make("memplace/single-step/" + workload + "-" + version);
  constexpr std::size_t kActions = 8;
  const std::vector<std::int64_t> actions = random_mappings(*env, kActions);
  const std::size_t size = actions.size() / kActions;
  std::size_t i = 0;
  for (auto _ : state) {
    env->reset();
    const StepResult r = env->step(std::span(actions).subspan((i++ % kActions) * size, size));
    benchmark::DoNotOptimize(r.reward);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// `copies` copies stepped together (auto-reset on); items are copy-steps, the auto-resets included.
void BM_VectorEnv(benchmark::State& state, const std::string& id, std::size_t copies, int threads) {
  VectorEnv envs(id, copies, {}, VectorEnvOptions{.num_threads = threads});
  envs.reset(0);
  const bool masked = std::holds_alternative<Discrete>(envs.single_action_space());
  const std::vector<std::uint32_t> table = random_table();
  constexpr std::size_t kBatches = 4;
  std::vector<std::int64_t> batches =
      masked ? std::vector<std::int64_t>(copies) : random_mappings(envs.env(0), kBatches * copies);
  const std::size_t batch = copies * envs.action_size();
  std::size_t i = 0;
  for (auto _ : state) {
    std::span<const std::int64_t> actions;
    if (masked) {
      const VectorStepResult last = envs.last();
      for (std::size_t c = 0; c < copies; ++c)
        batches[c] = masked_choice(last.obs[c].action_mask, table[i++ % kTable]);
      actions = batches;
    } else {
      actions = std::span(batches).subspan((i++ % kBatches) * batch, batch);
    }
    const VectorStepResult r = envs.step(actions);
    benchmark::DoNotOptimize(r.rewards.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * copies));
  state.counters["threads"] = envs.num_threads();
}

}  // namespace

void register_benchmarks() {
  for (const std::string workload : {"resnet50", "bert-base"}) {
    benchmark::RegisterBenchmark(("SequentialEnv/" + workload).c_str(), BM_MaskedEnv,
                                 "memplace/sequential/" + workload + "-v0")
        ->UseRealTime();
    benchmark::RegisterBenchmark(("SequentialEnvStreaming/" + workload).c_str(), BM_MaskedEnv,
                                 "memplace/sequential/" + workload + "-v1")
        ->UseRealTime();
    // The malloc env: >= 500 k steps/s on resnet50, clone + step <= 2 us on bert-base.
    benchmark::RegisterBenchmark(("Malloc/" + workload).c_str(), BM_MaskedEnv,
                                 "memplace/malloc/" + workload + "-v2")
        ->UseRealTime();
    for (const std::size_t spread : {std::size_t{8}, std::size_t{100'000}}) {
      const std::string states = spread == 8 ? "/states:8" : "/states:all";
      benchmark::RegisterBenchmark(("MallocCloneAndStep/" + workload + states).c_str(),
                                   BM_CloneAndStep, "memplace/malloc/" + workload + "-v2", spread)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("SequentialEnvCloneAndStep/" + workload + states).c_str(),
                                   BM_CloneAndStep, "memplace/sequential/" + workload + "-v1",
                                   spread)
          ->UseRealTime();
    }
    benchmark::RegisterBenchmark(("SingleStepEnv/" + workload).c_str(), BM_SingleStepEnv, workload,
                                 "v0")
        ->UseRealTime();
    benchmark::RegisterBenchmark(("SingleStepEnvStreaming/" + workload).c_str(), BM_SingleStepEnv,
                                 workload, "v1")
        ->UseRealTime();
  }
  // 16 copies of each; the sequential env's batches are small (about 1 us of work for 16
  // copies), so it is also measured with 64 and 256 copies to show where two threads pay off.
  for (const std::string kind : {"sequential", "single-step"}) {
    for (const std::string workload : {"resnet50", "bert-base"}) {
      for (std::size_t copies : {16, 64, 256}) {
        if (copies != 16 && kind != "sequential") continue;
        for (int threads : {1, 2}) {
          const std::string id = "memplace/" + kind + "/" + workload + "-v0";
          const std::string name = "VectorEnv/" + kind + "/" + workload +
                                   "/copies:" + std::to_string(copies) +
                                   "/threads:" + std::to_string(threads);
          benchmark::RegisterBenchmark(name.c_str(), BM_VectorEnv, id, copies, threads)
              ->UseRealTime();
        }
      }
    }
  }
}

}  // namespace memplace
