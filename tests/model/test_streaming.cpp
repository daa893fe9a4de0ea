// The streaming dynamics (cost model v1): a toy case with every DMA byte computed by hand, and
// properties over random DAGs and the shipped workloads (lookahead 0 is v0 bit for bit, v1 is
// never slower than v0, validity is v0's, the thread count changes nothing).
#include <doctest/doctest.h>

#include <random>

#include "env/registry.hpp"
#include "env/sequential_env.hpp"
#include "model/mapping_io.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::ns;

using toy::kStreaming;

// Z -> A -> B -> C; only C's 40-byte weight can be prefetched (every activation is read by the
// layer right after its producer, so it exists only when it is needed). Toy hardware: FAST 1 ns
// per byte, SLOW 10 ns per byte, 1 MAC = 1 ns, 5 ns overhead per layer.
Workload stream_chain() {
  return toy::workload("stream", {{"Z", 200, 0, 60, {}},
                                  {"A", 500, 0, 10, {{"Z", 60}}},
                                  {"B", 100, 0, 10, {{"A", 10}}},
                                  {"C", 100, 40, 10, {{"B", 10}}}});
}

// Activations in FAST, weights in SLOW.
Mapping activations_fast() {
  return {1, 0, 1, 0, 1, 0, 1, 0};
}

TimeFs streaming_latency(Hardware hw, std::int64_t lookahead) {
  hw.dma.lookahead = lookahead;
  const Simulator sim(stream_chain(), std::move(hw), kStreaming);
  return sim.evaluate(activations_fast()).latency_fs;
}

TEST_CASE("streaming: the toy chain, every DMA byte by hand") {
  // Pinned (v0): Z max(200, 60 FAST) + 5 = 205; A max(500, 60 + 10) + 5 = 505;
  // B max(100, 20) + 5 = 105; C max(100, 400 SLOW for the weight, 20 FAST) + 5 = 405. 1220 ns.
  const Simulator pinned(stream_chain(), toy::hardware());
  CHECK(pinned.evaluate(activations_fast()).latency_fs == ns(1220));

  // Lookahead 8: C's weight (400 ns of SLOW time, above C's 100 ns of compute) is a candidate; its
  // 40-byte buffer fits FAST from layer 0 (FAST holds at most 70 bytes of activations). The copy
  // advances 205 ns in Z (SLOW idle all of Z's 205 ns, FAST idle 145 ns = 1450 ns of SLOW time)
  // and the remaining 195 ns in A. C reads it all from FAST: max(100, 0 SLOW, 20 + 40 FAST) + 5.
  CHECK(streaming_latency(toy::hardware(), 8) == ns(205 + 505 + 105 + 105));

  // Lookahead 1: the copy may start in B only and advances by B's 105 ns of idle SLOW time. C
  // reads the other 400 - 105 = 295 ns from SLOW, and 105/400 of 40 ns = 10.5 ns from FAST:
  // max(100, 295, 20 + 10.5) + 5 = 300.
  CHECK(streaming_latency(toy::hardware(), 1) == ns(205 + 505 + 105 + 300));

  // Lookahead 0: no prefetch, exactly v0.
  CHECK(streaming_latency(toy::hardware(), 0) == ns(1220));

  // FAST holds 100 bytes: in use 60 (step Z), 70 (A: Z's and A's outputs), 20, 20. The 40-byte
  // buffer fits from B on only, so lookahead 8 gives what lookahead 1 gave.
  Hardware small = toy::hardware();
  small.memories[0].capacity_bytes = 100;
  CHECK(streaming_latency(small, 8) == ns(205 + 505 + 105 + 300));

  // Without the overhead as DMA time, B gives 100 ns: C = max(100, 300, 20 + 10) + 5 = 305.
  Hardware busy_barrier = toy::hardware();
  busy_barrier.dma.during_overhead = false;
  CHECK(streaming_latency(busy_barrier, 1) == ns(205 + 505 + 105 + 305));
  // ... and over a long window Z and A still copy it all (200 + 200 ns of 400).
  CHECK(streaming_latency(busy_barrier, 8) == ns(205 + 505 + 105 + 105));

  // memory_time sum (one shared path): v0 C = max(100, 400 + 20) + 5 = 425; 1240 ns in all. At
  // lookahead 1, B leaves 105 - 20 = 85 ns of the path idle; each fs of SLOW copy costs 1.1 fs of
  // path (the 40 ns FAST write per 400 ns), so floor(85e6 / 1.1) = 77,272,727 fs are copied, and
  // the FAST share rounds up: ceil(7,727,272.7) = 7,727,273 fs. C reads 400e6 - 77,272,727 fs from
  // SLOW and 20e6 + 7,727,273 from FAST: 350,454,546 fs, + 5 ns of overhead.
  const Simulator pinned_sum(stream_chain(), toy::hardware(MemoryTimeCombine::sum));
  CHECK(pinned_sum.evaluate(activations_fast()).latency_fs == ns(1240));
  CHECK(streaming_latency(toy::hardware(MemoryTimeCombine::sum), 1) ==
        ns(205 + 505 + 105) + 355'454'546);
}

TEST_CASE("streaming: no staging memory, or a read homed in the fastest memory, copies nothing") {
  Hardware none = toy::hardware();
  none.dma.staging = std::vector<std::string>{};
  CHECK(streaming_latency(none, 8) == ns(1220));
  // Every tensor in FAST: nothing is faster, so v1 = v0.
  const Simulator pinned(stream_chain(), toy::hardware());
  const Simulator streaming(stream_chain(), toy::hardware(), kStreaming);
  const Mapping fast(8, 0);
  CHECK(streaming.evaluate(fast).latency_fs == pinned.evaluate(fast).latency_fs);
}

// v0 against v1 at `lookahead` on one mapping: lookahead 0 must be identical, any other never
// slower, layer by layer; peaks and validity are always v0's.
void check_against_pinned(const Simulator& pinned, const Simulator& streaming,
                          std::span<const MemoryIndex> mapping) {
  const Evaluation v0 = pinned.evaluate(mapping);
  const Evaluation v1 = streaming.evaluate(mapping);
  CHECK(v1.peak_bytes == v0.peak_bytes);
  CHECK(v1.overflow_bytes == v0.overflow_bytes);
  CHECK(v1.valid == v0.valid);
  if (streaming.hardware().dma.lookahead == 0) {
    CHECK(v1.latency_fs == v0.latency_fs);
    CHECK(v1.layer_fs == v0.layer_fs);
    return;
  }
  CHECK(v1.latency_fs <= v0.latency_fs);
  for (std::size_t l = 0; l < v0.layer_fs.size(); ++l)
    CHECK(v1.layer_fs[l] <= v0.layer_fs[l]);
}

TEST_CASE("streaming: lookahead 0 is v0 and v1 is never slower, on random DAGs") {
  std::mt19937_64 rng(11);
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Workload w = toy::random_workload(seed, 2 + seed % 30);
    for (std::size_t levels = 1; levels <= 4; ++levels) {
      for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        for (std::int64_t lookahead : {0, 1, 3, 16}) {
          Hardware hw = toy::hardware_levels(levels);
          hw.memory_time = c;
          hw.dma.lookahead = lookahead;
          hw.dma.during_overhead = seed % 2 == 0;
          const Simulator pinned(w, hw);
          const Simulator streaming(w, hw, kStreaming);
          for (int trial = 0; trial < 5; ++trial)
            check_against_pinned(pinned, streaming,
                                 toy::random_mapping(rng, pinned.num_tensors(), levels));
        }
      }
    }
  }
}

TEST_CASE("streaming: lookahead 0 is v0 and v1 is never slower, on every shipped workload") {
  std::mt19937_64 rng(5);
  for (const std::string& name : embedded_workload_names()) {
    CAPTURE(name);
    const Workload w = load_workload(name);
    for (std::int64_t lookahead : {0, 8}) {
      Hardware hw = load_hardware("nnpi");
      hw.dma.lookahead = lookahead;
      const Simulator pinned(w, hw);
      const Simulator streaming(w, hw, kStreaming);
      check_against_pinned(pinned, streaming, compiler_mapping(pinned));
      check_against_pinned(pinned, streaming, all_slowest_mapping(pinned));
      for (int trial = 0; trial < 3; ++trial)
        check_against_pinned(pinned, streaming,
                             toy::random_mapping(rng, pinned.num_tensors(), pinned.num_memories()));
    }
  }
}

TEST_CASE("streaming: evaluations from two threads at once equal one thread's") {
  const Simulator sim(load_workload("bert-base"), load_hardware("nnpi"), kStreaming);
  std::mt19937_64 rng(3);
  std::vector<Mapping> mappings;
  for (int i = 0; i < 64; ++i)
    mappings.push_back(toy::random_mapping(rng, sim.num_tensors(), sim.num_memories()));
  mappings.push_back(compiler_mapping(sim));
  std::vector<TimeFs> one(mappings.size()), two(mappings.size());
  for (std::size_t i = 0; i < mappings.size(); ++i)
    one[i] = sim.evaluate(mappings[i]).latency_fs;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (std::size_t i = 0; i < mappings.size(); ++i)
    two[i] = sim.evaluate(mappings[i]).latency_fs;
  CHECK(one == two);
}

TEST_CASE("hardware: bad DMA fields name the file, the line and the field") {
  const std::string base = R"(name: t
memories:
  - {name: FAST, capacity_bytes: 100, bandwidth_bytes_per_s: 1e9}
  - {name: SLOW, capacity_bytes: 1000, bandwidth_bytes_per_s: 1e8}
compute: {peak_macs_per_s: 1e9, vector_ops_per_s: 1e9}
)";
  auto error_of = [&](const std::string& dma) {
    try {
      Hardware::from_yaml(base + dma, "t.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("dma: {lookahead: -1}\n") ==
        "t.yaml:6: dma.lookahead: must be non-negative, got '-1'");
  CHECK(error_of("dma: {lookahead: 2.5}\n") ==
        "t.yaml:6: dma.lookahead: must be a whole number, got '2.5'");
  CHECK(error_of("dma:\n  staging: [SLOW]\n") ==
        "t.yaml:7: dma.staging[0]: 'SLOW' is the slowest memory: staging must be faster than a "
        "home");
  CHECK(error_of("dma:\n  staging: [SRAM]\n") == "t.yaml:7: dma.staging[0]: unknown memory 'SRAM'");
  CHECK(error_of("dma: {during_overhead: maybe}\n") ==
        "t.yaml:6: dma.during_overhead: expected true or false, got 'maybe'");
  CHECK(error_of("dma: {lookahed: 4}\n").find("dma.lookahed: unknown field") != std::string::npos);
  // Defaults: lookahead 8, every memory but the slowest, the DMA runs through the overhead.
  const Hardware h = Hardware::from_yaml(base, "t.yaml");
  CHECK(h.dma.lookahead == 8);
  CHECK(h.staging_memories() == std::vector<std::size_t>{0});
  CHECK(h.dma.during_overhead);
  // A round trip keeps every field.
  Hardware custom = h;
  custom.dma =
      Dma{.lookahead = 3, .staging = std::vector<std::string>{"FAST"}, .during_overhead = false};
  CHECK(Hardware::from_yaml(custom.to_yaml(), "round trip") == custom);
  CHECK(Hardware::from_yaml(h.to_yaml(), "round trip") == h);
}

TEST_CASE("streaming: a mapping file records the dynamics and lookahead it was scored under") {
  Hardware hw = toy::hardware();
  hw.dma.lookahead = 3;
  const Simulator streaming(stream_chain(), hw, kStreaming);
  const Simulator pinned(stream_chain(), hw);
  const Mapping m = activations_fast();
  const Evaluation e = streaming.evaluate(m);
  const std::string text =
      mapping_to_yaml(streaming, m, RecordedResult{.latency_fs = e.latency_fs, .valid = e.valid});
  CHECK(text.find("dynamics: streaming") != std::string::npos);
  CHECK(text.find("lookahead: 3") != std::string::npos);
  const MappingFile file = parse_mapping(text, "m.yaml", streaming);
  CHECK(file.header.model.dynamics == Dynamics::streaming);
  CHECK(file.header.model.lookahead == 3);
  CHECK(file.header.scored_like(streaming));
  CHECK_FALSE(file.header.scored_like(pinned));
  Hardware longer = hw;
  longer.dma.lookahead = 8;
  CHECK_FALSE(file.header.scored_like(Simulator(stream_chain(), longer, kStreaming)));
  CHECK(file.recorded->latency_fs == e.latency_fs);
  // A pinned file says nothing of dynamics, and reads back as pinned.
  const std::string pinned_text = mapping_to_yaml(pinned, m, RecordedResult{.latency_fs = 1});
  CHECK(pinned_text.find("dynamics") == std::string::npos);
  CHECK(parse_mapping(pinned_text, "p.yaml", pinned).header.scored_like(pinned));
}

TEST_CASE("streaming: the -v1 environments score under streaming, against its compiler") {
  auto v0 = make("memplace/single-step/resnet101-v0");
  auto v1 = make("memplace/single-step/resnet101-v1");
  const Simulator& sim = v1->simulator();
  CHECK(sim.dynamics() == Dynamics::streaming);
  // Two more static features, the same action space.
  CHECK(v1->reset(1).obs.num_features() == v0->reset(1).obs.num_features() + 2);
  // The streaming-aware compiler's mapping scores exactly 1; the pinned compiler's less.
  const Mapping compiler = compiler_mapping(sim);
  const StepResult r = v1->step(std::vector<std::int64_t>(compiler.begin(), compiler.end()));
  CHECK(r.info.speedup == 1.0);
  CHECK(r.info.latency_fs == sim.evaluate(compiler).latency_fs);
  v1->reset(1);
  const Mapping pinned = pinned_compiler_mapping(sim);
  CHECK(v1->step(std::vector<std::int64_t>(pinned.begin(), pinned.end())).info.speedup < 1.0);
  // Options round-trip, and dynamics=pinned is v0's latency under v1's observation.
  auto again = make(v1->id(), v1->options());
  CHECK(again->options() == v1->options());
  auto as_pinned = make("memplace/single-step/resnet101-v1", {{"dynamics", "pinned"}});
  CHECK(as_pinned->simulator().dynamics() == Dynamics::pinned);
  auto short_window = make("memplace/sequential/resnet101-v1", {{"lookahead", "2"}});
  CHECK(short_window->simulator().hardware().dma.lookahead == 2);
  CHECK(short_window->options().at("lookahead") == "2");
}

// The -v1 sequential env's two dynamic features, recomputed from scratch for a mapping: the free
// share of the staging memories at each layer's step, and each layer's memory-bound share.
void check_streaming_features(const Simulator& sim, std::span<const MemoryIndex> mapping,
                              const ObservationView& obs) {
  const Evaluation e = sim.evaluate(mapping);
  double capacity = 0;
  std::vector<bool> staging(sim.num_memories(), false);
  for (const std::size_t m : sim.hardware().staging_memories()) {
    staging[m] = true;
    capacity += static_cast<double>(sim.capacity(m));
  }
  const std::size_t free_column = obs.graph->num_features + SequentialEnv::kDynamicFeatures;
  for (std::size_t l = 0; l < sim.num_layers(); ++l) {
    std::int64_t used = 0;
    for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
      if (staging[mapping[t]] && sim.live_first(t) <= l && l <= sim.live_last(t))
        used += sim.tensor_bytes(t);
    }
    const double free = (capacity - static_cast<double>(used)) / capacity;
    REQUIRE(obs.feature(l, free_column) == doctest::Approx(free).epsilon(1e-6));
    const TimeFs waiting = e.layer_fs[l] - sim.overhead_fs() - sim.compute_fs(l);
    const double share =
        waiting <= 0 ? 0.0 : static_cast<double>(waiting) / static_cast<double>(e.layer_fs[l]);
    REQUIRE(obs.feature(l, free_column + 1) == doctest::Approx(share).epsilon(1e-6));
  }
}

TEST_CASE("streaming: the sequential -v1 env's latency and features follow the full evaluation") {
  auto env = make("memplace/sequential/bert-base-v1");
  const auto* seq = dynamic_cast<const SequentialEnv*>(env.get());
  REQUIRE(seq != nullptr);
  ObservationView obs = env->reset(7).obs;
  CHECK(obs.dynamic_features ==
        SequentialEnv::kDynamicFeatures + SequentialEnv::kStreamingDynamicFeatures);
  check_streaming_features(env->simulator(), seq->mapping(), obs);
  const Discrete space = std::get<Discrete>(env->action_space());
  for (int step = 0; step < 200; ++step) {
    const StepResult r = env->step(space.sample(env->rng(), obs.action_mask));
    CHECK(r.info.latency_fs == env->simulator().evaluate(seq->mapping()).latency_fs);
    obs = r.obs;
    if (step % 25 == 0) check_streaming_features(env->simulator(), seq->mapping(), obs);
  }
  // A reset starts again from the all-slowest features.
  obs = env->reset(8).obs;
  check_streaming_features(env->simulator(), seq->mapping(), obs);
  // v0 keeps its six dynamic columns.
  CHECK(make("memplace/sequential/bert-base-v0")->reset(0).obs.dynamic_features ==
        SequentialEnv::kDynamicFeatures);
}

}  // namespace
}  // namespace memplace
