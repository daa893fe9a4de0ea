// The addressed dynamics (cost model v2): toy cases with every offset and every DMA step computed
// by hand, and properties over random DAGs and the shipped workloads (v2 is never faster than v1,
// a mapping valid under v2 is valid under v1, v2 equals v1 where every buffer gets its address at
// its v1 issue, the layout is a packing, the v2 compiler's mapping is valid under v2).
#include <doctest/doctest.h>

#include <random>

#include "allocation/gaps.hpp"
#include "allocation/greedy_packing.hpp"
#include "allocation/packing_check.hpp"
#include "model/dynamics/addressed.hpp"
#include "model/inputs/embedded.hpp"
#include "model/rectify.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using toy::ns;

using toy::kStreaming;
const SimulatorOptions kAddressed{.memory_time = std::nullopt, .dynamics = Dynamics::addressed};

// Z -> A -> B -> C -> D; only D's 40-byte weight can be prefetched (every activation is read by
// the layer right after its producer). Outputs: Z 60 bytes (live at steps 0-1), A, B, C, D 10 each.
// Toy hardware: FAST 1 ns per byte, SLOW 10 ns per byte, 1 MAC = 1 ns, 5 ns overhead per layer.
Workload chain5() {
  return toy::workload("chain5", {{"Z", 50, 0, 60, {}},
                                  {"A", 50, 0, 10, {{"Z", 60}}},
                                  {"B", 100, 0, 10, {{"A", 10}}},
                                  {"C", 100, 0, 10, {{"B", 10}}},
                                  {"D", 100, 40, 10, {{"C", 10}}}});
}

// Activations in FAST, weights in SLOW.
Mapping chain5_activations_fast() {
  return {1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
}

Hardware fast_memory(std::int64_t capacity, std::int64_t alignment) {
  Hardware hw = toy::hardware();
  hw.memories[0].capacity_bytes = capacity;
  hw.memories[0].alignment_bytes = alignment;
  return hw;
}

struct Both {
  Evaluation v1, v2;
  AddressedLayout layout;
};

Both evaluate_both(const Workload& w, const Hardware& hw, std::span<const MemoryIndex> mapping) {
  const Simulator streaming(w, hw, kStreaming);
  const Simulator addressed(w, hw, kAddressed);
  Both b;
  b.v1 = streaming.evaluate(mapping);
  b.v2 = addressed.evaluate(mapping);
  Evaluation again;
  addressed.evaluate(mapping, again, b.layout);
  CHECK(again.latency_fs == b.v2.latency_fs);
  return b;
}

TEST_CASE("addressed: the toy chain, every offset and DMA step by hand") {
  // v0: Z max(50, 60 FAST) + 5 = 65; A max(50, 60 + 10) + 5 = 75; B and C max(100, 20) + 5 = 105;
  // D max(100, 400 SLOW for the weight, 20 FAST) + 5 = 405. 755 ns.
  const Simulator pinned(chain5(), toy::hardware());
  CHECK(pinned.evaluate(chain5_activations_fast()).latency_fs == ns(755));

  SUBCASE("a copy delayed by fragmentation keeps only the progress it makes from its address") {
    // FAST: 112 bytes, offsets multiples of 16. The best greedy packing (best fit by size; 74
    // bytes high, the least any packing reaches with this alignment) puts Z.out at [0, 60), A.out
    // at [64, 74), B.out at [0, 10), C.out at [16, 26), D.out at [0, 10).
    const Both b = evaluate_both(chain5(), fast_memory(112, 16), chain5_activations_fast());
    const std::vector<std::int64_t> offsets = {-1, 0, -1, 64, -1, 0, -1, 16, -1, 0};
    CHECK(b.layout.tensor_offset == offsets);
    // v1: bytes in use 60, 70, 20, 20, 20, so D's 40-byte buffer fits from layer 0. The copy
    // (400 ns of SLOW time) advances 50 ns in Z (FAST idle 65 - 60 = 5 ns = 50 ns of SLOW time),
    // 50 in A (idle 75 - 70), 105 in B and 105 in C: 310 ns. D reads 90 ns from SLOW and 31 ns
    // from FAST: max(100, 90, 20 + 31) + 5 = 105.
    CHECK(b.v1.latency_fs == ns(65 + 75 + 105 + 105 + 105));
    // v2: until A.out is freed (after step 2) the widest aligned free range over the window is 32
    // bytes ([80, 112); [32, 64) at step 2); from step 3 [32, 112) is free. The buffer gets offset
    // 32 at layer 3 and keeps only C's 105 ns: D reads 295 ns from SLOW, ceil(10.5) from FAST:
    // max(100, 295, 31) + 5 = 300.
    REQUIRE(b.layout.copies.size() == 1);
    CHECK(b.layout.copies[0].copy.issue == 0);
    CHECK(b.layout.copies[0].start == 3);
    CHECK(b.layout.copies[0].offset == 32);
    CHECK(b.layout.copies[0].copy.done == ns(105));
    CHECK(b.v2.valid);
    CHECK(b.v2.latency_fs == ns(65 + 75 + 105 + 105 + 300));
    CHECK(b.v2.layer_fs[3] == ns(105));  // C carries the DMA step it kept: 105 ns of idle SLOW
  }

  SUBCASE("a delay within v1's own window") {
    // 100 bytes: v1 issues at layer 2 (70 + 40 > 100 at step 1): B and C copy 105 ns each, D
    // reads 190 ns from SLOW: max(100, 190, 41) + 5 = 195. v2 has no 40-byte range at step 2
    // ([80, 100) and [32, 64) only), so the buffer starts at 3 as above.
    const Both b = evaluate_both(chain5(), fast_memory(100, 16), chain5_activations_fast());
    CHECK(b.v1.latency_fs == ns(65 + 75 + 105 + 105 + 195));
    REQUIRE(b.layout.copies.size() == 1);
    CHECK(b.layout.copies[0].copy.issue == 2);
    CHECK(b.layout.copies[0].start == 3);
    CHECK(b.layout.copies[0].offset == 32);
    CHECK(b.v2.latency_fs == ns(65 + 75 + 105 + 105 + 300));
  }

  SUBCASE("a copy with no free range is not made") {
    // 128 bytes, offsets multiples of 64: Z.out [0, 60), A.out [64, 74), B.out [0, 10), C.out
    // [64, 74), D.out [0, 10). v1 copies from layer 0 (as in the first case); v2 finds no aligned
    // 40-byte range at any step of the window (every 64-byte half holds a tensor until D), so D
    // reads its weight from SLOW as in v0.
    const Both b = evaluate_both(chain5(), fast_memory(128, 64), chain5_activations_fast());
    CHECK(b.v1.latency_fs == ns(65 + 75 + 105 + 105 + 105));
    const std::vector<std::int64_t> offsets = {-1, 0, -1, 64, -1, 0, -1, 64, -1, 0};
    CHECK(b.layout.tensor_offset == offsets);
    REQUIRE(b.layout.copies.size() == 1);
    CHECK(b.layout.copies[0].start == 4);
    CHECK(b.layout.copies[0].offset == -1);
    CHECK(b.v2.valid);
    CHECK(b.v2.latency_fs == ns(755));
  }

  SUBCASE("room for the buffer at its issue: v2 is v1") {
    const Both b = evaluate_both(chain5(), fast_memory(1000, 1), chain5_activations_fast());
    CHECK(b.layout.copies[0].start == b.layout.copies[0].copy.issue);
    CHECK(b.v2.latency_fs == b.v1.latency_fs);
    CHECK(b.v2.layer_fs == b.v1.layer_fs);
  }

  SUBCASE("bytes that fit but cannot be given addresses: valid under v1, not under v2") {
    // 72 bytes, alignment 64: at step 1 Z.out (60) and A.out (10) are live (70 <= 72), but one of
    // them must start at 64: 74 or 124 bytes high. The allocator proves it; the overflow is the
    // best greedy packing's height over the capacity, 74 - 72.
    const Both b = evaluate_both(chain5(), fast_memory(72, 64), chain5_activations_fast());
    CHECK(b.v1.valid);
    CHECK_FALSE(b.v2.valid);
    CHECK(b.v2.overflow_bytes[0] == 2);
    CHECK_FALSE(b.layout.packed[0]);
    CHECK(b.v2.latency_fs == b.v1.latency_fs);  // an invalid mapping is scored as under v1
  }
}

// The layout as one allocation problem per memory (tensors and staged buffers), which must be a
// packing: every range aligned, below the capacity, and no two live together sharing a byte.
void check_layout_packs(const Simulator& sim, std::span<const MemoryIndex> mapping,
                        const AddressedLayout& layout) {
  for (std::size_t m = 0; m + 1 < sim.num_memories(); ++m) {
    if (!layout.packed[m]) continue;
    allocation::Problem p;
    p.capacity = sim.capacity(m);
    p.alignment = sim.hardware().memories[m].alignment_bytes;
    std::vector<std::int64_t> offsets;
    for (std::size_t t = 0; t < mapping.size(); ++t) {
      if (mapping[t] != m) continue;
      p.buffers.push_back({"t" + std::to_string(t), static_cast<std::int64_t>(sim.live_first(t)),
                           static_cast<std::int64_t>(sim.live_last(t)) + 1, sim.tensor_bytes(t)});
      offsets.push_back(layout.tensor_offset[t]);
    }
    for (std::size_t i = 0; i < layout.copies.size(); ++i) {
      const AddressedLayout::StagedCopy& c = layout.copies[i];
      if (c.copy.stage != m || c.offset < 0) continue;
      p.buffers.push_back({"copy" + std::to_string(i), c.start, c.copy.reader + 1, c.copy.bytes});
      offsets.push_back(c.offset);
    }
    const std::vector<std::string> faults = allocation::packing_faults(p, offsets);
    CHECK_MESSAGE(faults.empty(), sim.workload().name(), " memory ", m, ": ",
                  faults.empty() ? "" : faults.front());
  }
}

// The staging buffers' addresses are what the rule says, found the slow way: for each copy in plan
// order, every block of its memory (tensors and earlier buffers) is looked at for every start from
// its issue on, and the first start with a best-fit range wins.
void check_staging_by_scan(const Simulator& sim, std::span<const MemoryIndex> mapping,
                           const AddressedLayout& layout) {
  struct Held {
    std::int64_t offset, end;
    std::uint32_t first, last;
  };
  std::vector<std::vector<Held>> held(sim.num_memories());
  for (std::size_t t = 0; t < mapping.size(); ++t)
    if (mapping[t] + 1u < sim.num_memories() && sim.tensor_bytes(t) > 0)
      held[mapping[t]].push_back({layout.tensor_offset[t],
                                  layout.tensor_offset[t] + sim.tensor_bytes(t),
                                  static_cast<std::uint32_t>(sim.live_first(t)),
                                  static_cast<std::uint32_t>(sim.live_last(t))});
  for (const AddressedLayout::StagedCopy& staged : layout.copies) {
    const detail::Copy& c = staged.copy;
    std::uint32_t start = c.reader;
    std::int64_t offset = -1;
    for (std::uint32_t s = c.issue; s < c.reader && offset < 0; ++s) {
      std::vector<allocation::Range> taken;
      for (const Held& h : held[c.stage])
        if (h.first <= c.reader && h.last >= s) taken.emplace_back(h.offset, h.end);
      std::ranges::sort(taken);
      offset = allocation::fit_offset(taken, c.bytes, allocation::FitRule::best_fit,
                                      sim.hardware().memories[c.stage].alignment_bytes,
                                      sim.capacity(c.stage));
      if (offset >= 0) start = s;
    }
    CHECK(staged.start == start);
    CHECK(staged.offset == offset);
    if (offset >= 0) held[c.stage].push_back({offset, offset + c.bytes, start, c.reader});
  }
}

// v1 against v2 on one mapping.
void check_against_streaming(const Simulator& streaming, const Simulator& addressed,
                             std::span<const MemoryIndex> mapping) {
  const Evaluation v1 = streaming.evaluate(mapping);
  AddressedLayout layout;
  Evaluation v2;
  addressed.evaluate(mapping, v2, layout);
  CHECK(v2.peak_bytes == v1.peak_bytes);
  if (v2.valid) CHECK(v1.valid);
  CHECK(v2.latency_fs >= v1.latency_fs);
  for (std::size_t l = 0; l < v1.layer_fs.size(); ++l)
    CHECK(v2.layer_fs[l] >= v1.layer_fs[l]);
  if (!v2.valid) return;
  check_layout_packs(addressed, mapping, layout);
  check_staging_by_scan(addressed, mapping, layout);
  const bool all_on_time = std::ranges::all_of(
      layout.copies, [](const AddressedLayout::StagedCopy& c) { return c.start == c.copy.issue; });
  if (all_on_time) CHECK(v2.latency_fs == v1.latency_fs);
}

TEST_CASE("addressed: never faster than v1, valid only if v1-valid, v1 where no buffer waits") {
  std::mt19937_64 rng(23);
  std::size_t waited = 0, invalid_only_v2 = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Workload w = toy::random_workload(seed, 2 + seed % 30);
    for (std::size_t levels = 2; levels <= 4; ++levels) {
      for (MemoryTimeCombine c : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        for (std::int64_t lookahead : {1, 3, 16}) {
          Hardware hw = toy::hardware_levels(levels);
          hw.memory_time = c;
          hw.dma.lookahead = lookahead;
          hw.dma.during_overhead = seed % 2 == 0;
          for (std::size_t m = 0; m + 1 < levels; ++m)
            hw.memories[m].alignment_bytes = std::int64_t{1} << (seed % 7);
          const Simulator streaming(w, hw, kStreaming);
          const Simulator addressed(w, hw, kAddressed);
          for (int trial = 0; trial < 4; ++trial) {
            const Mapping mapping = toy::random_mapping(rng, streaming.num_tensors(), levels);
            check_against_streaming(streaming, addressed, mapping);
            AddressedLayout layout;
            Evaluation v2;
            addressed.evaluate(mapping, v2, layout);
            waited += std::ranges::count_if(layout.copies,
                                            [](const auto& s) { return s.start != s.copy.issue; });
            invalid_only_v2 += !v2.valid && streaming.evaluate(mapping).valid;
          }
        }
      }
    }
  }
  // The properties were exercised, not vacuous: buffers waited, and addresses invalidated
  // mappings whose bytes fit.
  CHECK(waited > 0);
  CHECK(invalid_only_v2 > 0);
}

TEST_CASE(
    "addressed: the compiler's mapping is valid under v2, on random DAGs and shipped models") {
  std::vector<std::pair<Workload, Hardware>> models;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    Hardware hw = toy::hardware_levels(3 + seed % 2);  // the slowest holds any toy workload
    hw.memories[0].alignment_bytes = 32;
    models.emplace_back(toy::random_workload(seed, 3 + seed % 25), hw);
  }
  for (const char* name : {"resnet50", "bert-base"})
    models.emplace_back(load_workload(name), load_hardware("nnpi"));
  for (const auto& [w, hw] : models) {
    const Simulator streaming(w, hw, kStreaming);
    const Simulator addressed(w, hw, kAddressed);
    const Mapping compiler = compiler_mapping(addressed);
    const Evaluation v2 = addressed.evaluate(compiler);
    CHECK_MESSAGE(v2.valid, w.name());
    check_against_streaming(streaming, addressed, compiler);
    // Its best-fit ranges lie below the capacities, so the bytes fit too.
    CHECK(streaming.evaluate(addressed_compiler_mapping(addressed)).valid);
  }
}

TEST_CASE(
    "addressed: every shipped workload on nnpi, from the compiler's mapping and random ones") {
  std::mt19937_64 rng(3);
  const Hardware hw = load_hardware("nnpi");
  for (const std::string& name : {std::string("resnet50"), std::string("bert-base"),
                                  std::string("gpt2-small"), std::string("resnet101")}) {
    const Workload w = load_workload(name);
    const Simulator streaming(w, hw, kStreaming);
    const Simulator addressed(w, hw, kAddressed);
    check_against_streaming(streaming, addressed, compiler_mapping(streaming));
    for (int trial = 0; trial < 3; ++trial)
      check_against_streaming(streaming, addressed,
                              toy::random_mapping(rng, streaming.num_tensors(), 3));
  }
}

TEST_CASE("addressed: rectify ends with addresses for every memory") {
  std::mt19937_64 rng(41);
  std::size_t repaired = 0;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    Hardware hw = toy::hardware_levels(3 + seed % 2);  // the slowest holds any toy workload
    for (std::size_t m = 0; m + 1 < hw.memories.size(); ++m)
      hw.memories[m].alignment_bytes = 64;
    const Simulator streaming(toy::random_workload(seed, 3 + seed % 25), hw, kStreaming);
    const Simulator addressed(streaming.workload(), hw, kAddressed);
    for (int trial = 0; trial < 4; ++trial) {
      const Mapping mapping = toy::random_mapping(rng, addressed.num_tensors(), hw.memories.size());
      const Rectified fixed = rectify(addressed, mapping);
      REQUIRE(fixed.valid);
      CHECK(addressed.evaluate(fixed.mapping).valid);
      // Where v1's rectify stops with bytes that fit but cannot be addressed, v2's goes further.
      const Rectified bytes_only = rectify(streaming, mapping);
      if (!addressed.evaluate(bytes_only.mapping).valid) {
        ++repaired;
        CHECK(fixed.demotions > bytes_only.demotions);
      }
    }
  }
  CHECK(repaired > 0);
}

TEST_CASE("hardware: alignment_bytes is read, written and checked") {
  const std::string yaml = R"(name: t
memories:
  - {name: FAST, capacity_bytes: 1024, bandwidth_bytes_per_s: 1e9, alignment_bytes: 64}
  - {name: SLOW, capacity_bytes: 1048576, bandwidth_bytes_per_s: 1e8}
compute: {peak_macs_per_s: 1e9, vector_ops_per_s: 1e9}
)";
  const Hardware hw = Hardware::from_yaml(yaml, "t.yaml");
  CHECK(hw.memories[0].alignment_bytes == 64);
  CHECK(hw.memories[1].alignment_bytes == 1);
  CHECK(Hardware::from_yaml(hw.to_yaml(), "again.yaml") == hw);
  std::string zero = yaml;
  zero.replace(zero.find("alignment_bytes: 64"), 19, "alignment_bytes: 0");
  CHECK_THROWS_WITH(Hardware::from_yaml(zero, "t.yaml"),
                    doctest::Contains("memories[0].alignment_bytes"));
  std::string huge = yaml;
  huge.replace(huge.find("alignment_bytes: 64"), 19, "alignment_bytes: 4096");
  CHECK_THROWS_WITH(Hardware::from_yaml(huge, "t.yaml"),
                    doctest::Contains("memories[0].alignment_bytes"));
}

}  // namespace
}  // namespace memplace
