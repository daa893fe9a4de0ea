// Fusion: which kept ONNX nodes form one layer, per preset (docs/workloads.md lists the rules).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/inputs/workload.hpp"
#include "workloads/tools/folding.hpp"
#include "workloads/tools/fusion_preset.hpp"
#include "workloads/tools/onnx_graph.hpp"

namespace memplace::onnx_import {

struct Group {
  std::vector<int> nodes;      // node indices, ascending (schedule order)
  int anchor = 0;              // the node that names the layer and gives its op kind
  std::optional<OpKind> kind;  // set for fused chains (GELU: elementwise, LayerNorm: norm)
  std::string rename;          // set for fused chains: replaces the last part of the anchor name
};

// The layers' node groups in schedule order (a topological order of the fused graph).
std::vector<Group> fuse(const Graph& g, const Folding& f, FusionPreset preset);

}  // namespace memplace::onnx_import
