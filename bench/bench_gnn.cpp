// The hand-written GNN (docs/gnn.md, docs/performance.md):
// - GnnPolicy/<workload>: forward + backward of the policy (hidden 128, 3 conv layers, batch 1)
//   on the single-step observation; bench/gnn_vs_torch.py runs it beside the PyTorch peer.
//   The `GFLOPs` counter is the achieved rate over the network's multiply-adds (flops below).
// - GnnCriticQ/bert-base/32: forward + backward of the Q critic over 32 action samples of one
//   graph (items_per_second = samples per second); the trunk runs once per batch.
// - Sgemm/<m>x<k>x<n>: the BLAS the GNN uses, on the conv layer's shape and a square one: the
//   single-core SGEMM rate that bounds the GNN (the fraction is reported by gnn_vs_torch.py).
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "agents/nn/gnn.hpp"
#include "bench/bench_main.hpp"
#include "env/registry.hpp"
#include "env/rng.hpp"

namespace memplace {
namespace {

constexpr std::size_t kHidden = 128, kLayers = 3;

nn::GraphBatch observation_batch(const std::string& workload) {
  const auto env = make("memplace/single-step/" + workload + "-v0");
  return nn::GraphBatch(env->reset(0).obs);
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (float& x : v)
    x = static_cast<float>(2 * rng.uniform01() - 1);
  return v;
}

// Multiply-adds x 2 of one policy forward + backward (the input needs no gradient).
double policy_flops(std::size_t n, std::size_t f, std::size_t h, std::size_t l, std::size_t m) {
  const double forward = 2.0 * n * (f * h + l * 3.0 * h * h + h * h + h * 2.0 * m);
  const double backward = 2.0 * n * (f * h + 2 * (l * 3.0 * h * h + h * h + h * 2.0 * m));
  return forward + backward;
}

void BM_GnnPolicy(benchmark::State& state, const std::string& workload) {
  const nn::GraphBatch batch = observation_batch(workload);
  const nn::GnnConfig config{.input_features = batch.num_features(),
                             .hidden = kHidden,
                             .conv_layers = kLayers,
                             .memories = 3};
  const nn::Gnn<float> policy(config, 1);
  nn::GnnWorkspace<float> ws;
  nn::ParameterSet<float> gradients = policy.zero_gradients();
  const std::vector<float> dlogits = random_floats(batch.num_nodes() * 2 * config.memories, 2);
  for (auto _ : state) {
    gradients.set_zero();
    policy.forward(batch, ws);
    policy.backward(batch, ws, {.logits = dlogits}, gradients);
    benchmark::DoNotOptimize(gradients.values().data());
  }
  const double flops =
      policy_flops(batch.num_nodes(), config.input_features, kHidden, kLayers, config.memories);
  state.counters["nodes"] = static_cast<double>(batch.num_nodes());
  state.counters["flops"] = flops;
  state.counters["GFLOPs"] =
      benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_GnnCriticQ(benchmark::State& state, const std::string& workload) {
  const nn::GraphBatch batch = observation_batch(workload);
  const auto samples = static_cast<std::size_t>(state.range(0));
  nn::GnnConfig config{.input_features = batch.num_features(),
                       .hidden = kHidden,
                       .conv_layers = kLayers,
                       .memories = 3};
  config.policy_head = false;
  config.q_head = true;
  const nn::Gnn<float> critic(config, 1);
  Rng rng(3);
  std::vector<std::uint8_t> actions(samples * 2 * batch.num_nodes());
  for (std::uint8_t& a : actions)
    a = static_cast<std::uint8_t>(rng.uniform(3));
  const std::vector<std::uint32_t> graph(samples, 0);
  const nn::QSamples q_samples{graph, actions};
  const std::vector<float> dq = random_floats(samples, 4);
  nn::GnnWorkspace<float> ws;
  nn::ParameterSet<float> gradients = critic.zero_gradients();
  for (auto _ : state) {
    gradients.set_zero();
    critic.forward(batch, ws, q_samples);
    critic.backward(batch, ws, {.q = dq}, gradients, q_samples);
    benchmark::DoNotOptimize(gradients.values().data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * samples));
}

void BM_Sgemm(benchmark::State& state) {
  const auto m = state.range(0), k = state.range(1), n = state.range(2);
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Matrix a = Matrix::Random(m, k), b = Matrix::Random(k, n);
  Matrix c = Matrix::Zero(m, n);
  nn::Gnn<float>(nn::GnnConfig{}, 0);  // sets OpenBLAS to one thread, as the GNN runs it
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * m * k * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

void register_benchmarks() {
  for (const std::string workload : {"resnet50", "bert-base"}) {
    benchmark::RegisterBenchmark(("GnnPolicy/" + workload).c_str(), BM_GnnPolicy, workload)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("GnnCriticQ/bert-base", BM_GnnCriticQ, std::string("bert-base"))
      ->Arg(1)
      ->Arg(32)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("Sgemm", BM_Sgemm)
      ->Args({374, 384, 128})
      ->Args({57, 384, 128})
      ->Args({512, 512, 512})
      ->UseRealTime();
}

}  // namespace memplace
