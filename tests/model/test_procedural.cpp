// Procedural workloads (model/inputs/procedural.hpp): a name gives one workload, its totals
// follow from what the seed drew (hand-derived formulas), the random DAG's layers come from the
// shipped workloads, and every drawn workload simulates under both dynamics.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "base/errors.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/procedural.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"

namespace memplace {
namespace {

TEST_CASE("procedural: a name is one workload, loaded by name anywhere") {
  const Workload a = procedural_workload(ProceduralKind::transformer, 7);
  CHECK(a.name() == "procedural-transformer-s7");
  CHECK(load_workload("procedural-transformer-s7") == a);
  CHECK(procedural_workload(ProceduralKind::transformer, 7) == a);
  CHECK_FALSE(procedural_workload(ProceduralKind::transformer, 8) == a);
  CHECK(load_workload("procedural-random-s0").name() == "procedural-random-s0");
  CHECK_FALSE(procedural_workload_named("resnet50").has_value());
  CHECK_THROWS_WITH_AS((void)load_workload("procedural-mlp-s1"),
                       doctest::Contains("procedural-mlp-s1: unknown kind 'mlp'"), InputError);
  CHECK_THROWS_WITH_AS((void)load_workload("procedural-cnn-sx"),
                       doctest::Contains("the seed 'x' is not a whole number"), InputError);
  CHECK_THROWS_WITH_AS((void)load_workload("procedural-cnn"), doctest::Contains("no seed"),
                       InputError);
}

TEST_CASE("procedural: a transformer's MACs and weights follow from its draw") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const TransformerDraw t = draw_transformer(seed);
    const Workload w = procedural_workload(ProceduralKind::transformer, seed);
    const std::int64_t d = t.hidden, f = t.ffn, kv = t.kv_heads * 64, tokens = t.batch * t.sequence;
    const std::int64_t mlp_matrices = t.gated ? 3 : 2;
    const std::int64_t block_weights = 2 * d * d + 2 * d * kv + mlp_matrices * d * f + 2 * d;
    const std::int64_t block_macs = tokens * (2 * d * d + 2 * d * kv + mlp_matrices * d * f) +
                                    2 * t.batch * t.heads * t.sequence * t.sequence * 64;
    CHECK(w.total_weight_bytes() == t.blocks * block_weights + 2 * t.vocab * d + d);
    CHECK(w.total_macs() == t.blocks * block_macs + t.batch * d * t.vocab);
    CHECK(w.size() == static_cast<std::size_t>(t.blocks * (t.gated ? 15 : 14) + 3));
    CHECK(t.heads * 64 == d);
    CHECK(t.heads % t.kv_heads == 0);
  }
}

TEST_CASE("procedural: a CNN's stages halve the resolution and end in 1000 classes") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const CnnDraw c = draw_cnn(seed);
    const Workload w = procedural_workload(ProceduralKind::cnn, seed);
    const Layer& classifier = w.layers().back();
    CHECK(classifier.output_bytes == c.batch * 1000);
    const std::int64_t last_width = c.stem_channels << (c.stages - 1);
    CHECK(classifier.weight_bytes == last_width * 1000 + 1000);
    // The stem at 112x112 from a 224x224x3 image.
    const Layer& stem = w.layers().front();
    CHECK(stem.external_input_bytes == c.batch * 224 * 224 * 3);
    CHECK(stem.macs == c.batch * 112 * 112 * c.stem_channels * 27);
    // The pool reads the last stage's map: 112 halved once per stage.
    std::int64_t size = 112;
    for (std::int64_t s = 0; s < c.stages; ++s)
      size = std::max<std::int64_t>(1, size / 2);
    const Layer& pool = w.layers()[w.size() - 2];
    CHECK(pool.inputs.front().bytes == c.batch * size * size * last_width);
  }
}

TEST_CASE("procedural: a random DAG's layers are shipped layers, joined in a connected DAG") {
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>> shipped;
  for (const std::string& name : embedded_workload_names()) {
    const Workload w = load_workload(name);
    for (const Layer& l : w.layers())
      shipped.insert({l.macs, l.vector_ops, l.weight_bytes, l.output_bytes});
  }
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    CAPTURE(seed);
    const Workload w = procedural_workload(ProceduralKind::random, seed);
    CHECK(w.size() >= 24);
    CHECK(w.size() <= 256);
    for (std::size_t i = 0; i < w.size(); ++i) {
      const Layer& l = w.layers()[i];
      CHECK(shipped.contains({l.macs, l.vector_ops, l.weight_bytes, l.output_bytes}));
      if (i > 0) CHECK(l.inputs.front().producer == i - 1);  // connected through the chain
    }
  }
}

TEST_CASE("procedural: every kind simulates under both dynamics on every shipped chip") {
  for (const ProceduralKind kind :
       {ProceduralKind::transformer, ProceduralKind::cnn, ProceduralKind::random}) {
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      const Workload w = procedural_workload(kind, seed);
      CAPTURE(w.name());
      for (const std::string& hardware : embedded_hardware_names()) {
        for (const Dynamics dynamics : {Dynamics::pinned, Dynamics::streaming}) {
          SimulatorOptions options;
          options.dynamics = dynamics;
          const Simulator sim(w, load_hardware(hardware), options);
          const ReferenceLatencies r = reference_latencies(sim);
          CHECK(r.compiler_fs > 0);
          CHECK(r.compiler_fs <= r.all_slowest_fs);
        }
      }
    }
  }
}

}  // namespace
}  // namespace memplace
