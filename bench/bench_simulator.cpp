// Simulator micro-benchmarks: a full evaluation and an incremental move per paper workload, under
// the pinned, streaming and addressed dynamics. Targets (docs/performance.md): bert-base full
// evaluation <= 1.5 us (pinned) and <= 5 us (streaming), incremental move <= 150 ns, on one core.
// The addressed (v2) evaluations have no target of their own; MallocScore is the allocation
// game's last step, inside its clone + step target (bench_envs.cpp).
#include <benchmark/benchmark.h>

#include "bench/bench_main.hpp"

#include <map>
#include <memory>
#include <random>
#include <tuple>

#include "env/malloc/malloc_env.hpp"
#include "env/registry.hpp"
#include "model/dynamics/addressed.hpp"
#include "model/dynamics/incremental_streaming.hpp"
#include "model/incremental.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"

namespace memplace {
namespace {

const Simulator& simulator_for(const std::string& name, bool scalar_kernel = false,
                               Dynamics dynamics = Dynamics::pinned, std::int64_t lookahead = 8) {
  // One simulator per workload, kernel, dynamics and lookahead for the whole process.
  static std::map<std::tuple<std::string, bool, Dynamics, std::int64_t>, std::unique_ptr<Simulator>>
      cache;
  auto& slot = cache[{name, scalar_kernel, dynamics, lookahead}];
  if (!slot) {
    SimulatorOptions options;
    options.scalar_kernel = scalar_kernel;
    options.dynamics = dynamics;
    Hardware hw = load_hardware("nnpi");
    hw.dma.lookahead = lookahead;
    slot = std::make_unique<Simulator>(load_workload(name), std::move(hw), options);
  }
  return *slot;
}

std::vector<Mapping> random_mappings(const Simulator& sim, std::size_t count) {
  std::mt19937_64 rng(1);
  std::vector<Mapping> mappings(count, Mapping(sim.num_tensors()));
  for (Mapping& m : mappings) {
    for (MemoryIndex& x : m)
      x = static_cast<MemoryIndex>(rng() % sim.num_memories());
  }
  return mappings;
}

struct Move {
  std::size_t tensor;
  MemoryIndex memory;
};

std::vector<Move> random_moves(const Simulator& sim, std::size_t count) {
  std::mt19937_64 rng(2);
  std::vector<Move> moves(count);
  for (Move& m : moves) {
    m.tensor = rng() % sim.num_tensors();
    m.memory = static_cast<MemoryIndex>(rng() % sim.num_memories());
  }
  return moves;
}

// Full evaluations of 64 mappings in turn.
void time_evaluations(benchmark::State& state, const Simulator& sim,
                      const std::vector<Mapping>& mappings) {
  Evaluation out;
  std::size_t i = 0;
  for (auto _ : state) {
    sim.evaluate(mappings[i++ & 63], out);
    benchmark::DoNotOptimize(out.latency_fs);
  }
  state.counters["layers"] = static_cast<double>(sim.num_layers());
}

void BM_FullEvaluate(benchmark::State& state, const std::string& name, bool scalar_kernel) {
  const Simulator& sim = simulator_for(name, scalar_kernel);
  time_evaluations(state, sim, random_mappings(sim, 64));
}

// Streaming: random mappings (a third of the tensors in each memory, mostly overflowing), and
// mappings one random move away from the streaming-aware compiler's (what a search evaluates).
// The benchmark's argument is the DMA lookahead (0: the streaming code with nothing to prefetch).
void BM_FullEvaluateStreaming(benchmark::State& state, const std::string& name,
                              bool near_compiler) {
  const Simulator& sim = simulator_for(name, false, Dynamics::streaming, state.range(0));
  std::vector<Mapping> mappings = random_mappings(sim, 64);
  if (near_compiler) {
    const Mapping compiler = compiler_mapping(sim);
    std::mt19937_64 rng(3);
    for (Mapping& m : mappings) {
      m = compiler;
      m[rng() % m.size()] = static_cast<MemoryIndex>(rng() % sim.num_memories());
    }
  }
  time_evaluations(state, sim, mappings);
}

// Addressed (v2): mappings one random move away from v2's compiler mapping, with the allocator
// finding the tensors' addresses.
void BM_FullEvaluateAddressed(benchmark::State& state, const std::string& name) {
  const Simulator& sim = simulator_for(name, false, Dynamics::addressed);
  const Mapping compiler = compiler_mapping(sim);
  std::vector<Mapping> mappings(64, compiler);
  std::mt19937_64 rng(3);
  for (Mapping& m : mappings)
    m[rng() % m.size()] = static_cast<MemoryIndex>(rng() % sim.num_memories());
  time_evaluations(state, sim, mappings);
}

// Addressed, with the addresses given: the layouts of 8 random episodes of the malloc env
// (uniform over the allowed actions), scored as its last step scores them (only the staging
// buffers are placed).
void BM_MallocScore(benchmark::State& state, const std::string& name) {
  auto game = make("memplace/malloc/" + name + "-v2");
  const Simulator& sim = game->simulator();
  std::mt19937_64 rng(4);
  std::vector<std::pair<Mapping, std::vector<std::int64_t>>> layouts;
  for (int episode = 0; episode < 8; ++episode) {
    ObservationView obs = game->reset(episode).obs;
    for (bool done = false; !done;) {
      std::vector<std::int64_t> allowed;
      for (std::size_t a = 0; a < obs.action_mask.size(); ++a)
        if (obs.action_mask[a] != 0) allowed.push_back(static_cast<std::int64_t>(a));
      const std::int64_t pick = allowed[rng() % allowed.size()];
      const StepResult r = game->step(std::span(&pick, 1));
      done = r.terminated;
      obs = r.obs;
    }
    const auto& played = dynamic_cast<const MallocEnv&>(*game);
    layouts.emplace_back(Mapping(played.mapping().begin(), played.mapping().end()),
                         played.tensor_offsets());
  }
  Evaluation out;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [mapping, offsets] = layouts[i++ & 7];
    sim.evaluate_at_offsets(mapping, offsets, out);
    benchmark::DoNotOptimize(out.latency_fs);
  }
}

void BM_IncrementalMove(benchmark::State& state, const std::string& name) {
  const Simulator& sim = simulator_for(name);
  IncrementalEvaluator inc(sim, compiler_mapping(sim));
  const std::vector<Move> moves = random_moves(sim, 4096);
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = moves[i++ & 4095];
    inc.move(m.tensor, m.memory);
    benchmark::DoNotOptimize(inc.latency_fs());
    benchmark::DoNotOptimize(inc.valid());
  }
}

// Under streaming: a random move from the streaming-aware compiler's mapping and back (what a
// local search does), timed per move; compare with FullEvaluateStreamingNearCompiler.
void BM_IncrementalMoveStreaming(benchmark::State& state, const std::string& name) {
  const Simulator& sim = simulator_for(name, false, Dynamics::streaming, state.range(0));
  IncrementalStreamingEvaluator inc(sim, compiler_mapping(sim));
  const std::vector<Move> moves = random_moves(sim, 4096);
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = moves[i++ & 4095];
    const MemoryIndex back = inc.mapping()[m.tensor];
    inc.move(m.tensor, m.memory);
    benchmark::DoNotOptimize(inc.latency_fs());
    inc.move(m.tensor, back);
    benchmark::DoNotOptimize(inc.latency_fs());
  }
  state.SetItemsProcessed(2 * static_cast<std::int64_t>(state.iterations()));
}

void BM_IncrementalPreview(benchmark::State& state, const std::string& name) {
  const Simulator& sim = simulator_for(name);
  IncrementalEvaluator inc(sim, compiler_mapping(sim));
  const std::vector<Move> moves = random_moves(sim, 4096);
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = moves[i++ & 4095];
    benchmark::DoNotOptimize(inc.preview(m.tensor, m.memory));
  }
}

void BM_CompilerMapping(benchmark::State& state, const std::string& name) {
  const Simulator& sim = simulator_for(name);
  for (auto _ : state)
    benchmark::DoNotOptimize(compiler_mapping(sim));
}

}  // namespace

void register_benchmarks() {
  for (const std::string name : {"resnet50", "resnet101", "bert-base"}) {
    benchmark::RegisterBenchmark(("FullEvaluate/" + name).c_str(), BM_FullEvaluate, name, false);
    benchmark::RegisterBenchmark(("FullEvaluateScalarKernel/" + name).c_str(), BM_FullEvaluate,
                                 name, true);
    benchmark::RegisterBenchmark(("FullEvaluateStreaming/" + name).c_str(),
                                 BM_FullEvaluateStreaming, name, false)
        ->ArgName("lookahead")
        ->Arg(8)
        ->Arg(0)
        ->Arg(16);
    benchmark::RegisterBenchmark(("FullEvaluateStreamingNearCompiler/" + name).c_str(),
                                 BM_FullEvaluateStreaming, name, true)
        ->ArgName("lookahead")
        ->Arg(8);
    benchmark::RegisterBenchmark(("FullEvaluateAddressedNearCompiler/" + name).c_str(),
                                 BM_FullEvaluateAddressed, name)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("MallocScore/" + name).c_str(), BM_MallocScore, name)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("IncrementalMove/" + name).c_str(), BM_IncrementalMove, name);
    benchmark::RegisterBenchmark(("IncrementalMoveStreaming/" + name).c_str(),
                                 BM_IncrementalMoveStreaming, name)
        ->ArgName("lookahead")
        ->Arg(8);
    benchmark::RegisterBenchmark(("IncrementalPreview/" + name).c_str(), BM_IncrementalPreview,
                                 name);
    benchmark::RegisterBenchmark(("CompilerMapping/" + name).c_str(), BM_CompilerMapping, name)
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace memplace
