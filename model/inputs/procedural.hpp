// Procedural workloads: realistic graphs drawn by seed, for agents that train across graphs and for
// tests (docs/workloads.md, "Procedural workloads"). Never in a suite: a suite's workloads are real
// models imported from their fixtures.
//
// A procedural workload is named `procedural-<kind>-s<seed>` and loads by that name wherever a
// workload does (load_workload). The kinds:
//   transformer  a stack of pre-norm blocks (attention with grouped or full key/value heads, a
//                plain or gated MLP) after a token embedding, at a drawn batch and sequence;
//   cnn          a stem and 3-5 stages of residual blocks (basic 3x3 pairs or inverted
//                bottlenecks with a depthwise conv) halving the resolution, then a classifier,
//                at a drawn batch;
//   random       a random DAG (each layer reads its predecessor and sometimes an earlier layer)
//                whose layers' costs are drawn from the shipped workloads' layers, so its sizes
//                and bytes follow theirs.
// Integer arithmetic and memplace's portable generator only: the same name gives the same
// workload on every machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/inputs/workload.hpp"

namespace memplace {

enum class ProceduralKind : std::uint8_t { transformer, cnn, random };
std::string_view procedural_kind_name(ProceduralKind kind);
std::vector<std::string> procedural_kind_names();

// What a seed drew; the workload follows from it.
struct TransformerDraw {
  std::int64_t blocks = 0, hidden = 0, heads = 0, kv_heads = 0, ffn = 0, vocab = 0;
  bool gated = false;  // SwiGLU-style MLP: gate and up projections, then down
  std::int64_t batch = 0, sequence = 0;
};
struct CnnDraw {
  std::int64_t stem_channels = 0, stages = 0, batch = 0;
  std::vector<std::int64_t> blocks;  // per stage
  bool inverted = false;             // inverted bottlenecks (expansion `expansion`) or basic
  std::int64_t expansion = 0;
};
TransformerDraw draw_transformer(std::uint64_t seed);
CnnDraw draw_cnn(std::uint64_t seed);

Workload procedural_workload(ProceduralKind kind, std::uint64_t seed);

// "procedural-transformer-s7" -> the workload; nullopt if `name` does not start with
// "procedural-"; InputError naming what is wrong for a malformed name of that form.
std::optional<Workload> procedural_workload_named(std::string_view name);

}  // namespace memplace
