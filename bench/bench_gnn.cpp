// The hand-written GNN (docs/gnn.md, docs/performance.md):
// - GnnPolicy/<workload>: forward + backward of the policy (hidden 128, 3 conv layers, batch 1)
//   on the single-step observation; bench/gnn_vs_torch.py runs it beside the PyTorch peer.
//   The `GFLOPs` counter is the achieved rate over the network's multiply-adds (flops below).
// - GnnCriticQ/bert-base/32: forward + backward of the Q critic over 32 action samples of one
//   graph (items_per_second = samples per second); the trunk runs once per batch.
// - Gemm/<kernel>/<m>/<k>/<n>: memplace's products (agents/nn/gemm.hpp), C += A B, with each
//   kernel this CPU runs, on the conv layer's shapes and a square one; OpenBlasSgemm/<m>/<k>/<n>
//   is the peer, OpenBLAS's single-threaded SGEMM with the kernels it picks for this CPU, in the
//   same run. The GnnPolicy rows use the default kernel (MEMPLACE_GEMM_KERNEL to force one).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "agents/nn/gemm.hpp"
#include "agents/nn/gnn.hpp"
#include "base/rng.hpp"
#include "bench/bench_main.hpp"
#include "env/registry.hpp"

// OpenBLAS's CBLAS entry points (the peer only; memplace itself does not link a BLAS).
extern "C" {
void openblas_set_num_threads(int num_threads);
void cblas_sgemm(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
}

namespace memplace {
namespace {

constexpr int kCblasRowMajor = 101, kCblasNoTrans = 111;

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

std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  return random_floats(static_cast<std::size_t>(rows * cols), seed);
}

void set_gemm_counters(benchmark::State& state) {
  const double m = state.range(0), k = state.range(1), n = state.range(2);
  state.counters["GFLOPs"] =
      benchmark::Counter(2.0 * m * k * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Gemm(benchmark::State& state, nn::GemmKernel kernel) {
  const auto m = state.range(0), k = state.range(1), n = state.range(2);
  const std::vector<float> a = random_matrix(m, k, 1), b = random_matrix(k, n, 2);
  std::vector<float> c(static_cast<std::size_t>(m * n), 0.0f);
  const nn::GemmKernel before = nn::gemm_kernel();
  nn::set_gemm_kernel(kernel);
  for (auto _ : state) {
    nn::gemm_nn<float>(c, a, b, static_cast<std::size_t>(m), static_cast<std::size_t>(k),
                       static_cast<std::size_t>(n));
    benchmark::DoNotOptimize(c.data());
  }
  nn::set_gemm_kernel(before);
  set_gemm_counters(state);
}

void BM_OpenBlasSgemm(benchmark::State& state) {
  const auto m = state.range(0), k = state.range(1), n = state.range(2);
  const std::vector<float> a = random_matrix(m, k, 1), b = random_matrix(k, n, 2);
  std::vector<float> c(static_cast<std::size_t>(m * n), 0.0f);
  openblas_set_num_threads(1);
  const auto mi = static_cast<int>(m), ki = static_cast<int>(k), ni = static_cast<int>(n);
  for (auto _ : state) {
    cblas_sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, mi, ni, ki, 1.0f, a.data(), ki,
                b.data(), ni, 1.0f, c.data(), ni);
    benchmark::DoNotOptimize(c.data());
  }
  set_gemm_counters(state);
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
  const auto shapes = [](benchmark::internal::Benchmark* b) {
    b->Args({374, 384, 128})->Args({57, 384, 128})->Args({512, 512, 512})->UseRealTime();
  };
  for (const nn::GemmKernel kernel :
       {nn::GemmKernel::portable, nn::GemmKernel::avx2, nn::GemmKernel::avx512})
    if (nn::gemm_kernel_available(kernel))
      shapes(benchmark::RegisterBenchmark(
          ("Gemm/" + std::string(nn::gemm_kernel_name(kernel))).c_str(), BM_Gemm, kernel));
  shapes(benchmark::RegisterBenchmark("OpenBlasSgemm", BM_OpenBlasSgemm));
}

}  // namespace memplace
