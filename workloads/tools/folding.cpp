#include "workloads/tools/folding.hpp"

#include <algorithm>

#include "workloads/tools/op_costs.hpp"

namespace memplace::onnx_import {

int Folding::input(const Node& node, std::size_t i) const {
  const int t = node.input(i);
  return t == kNoTensor ? kNoTensor : canonical[static_cast<std::size_t>(t)];
}

bool Folding::static_input(const Node& node, std::size_t i) const {
  const int t = input(node, i);
  return t != kNoTensor && is_static[static_cast<std::size_t>(t)] != 0;
}

bool is_embedding_lookup(const Graph& g, const Node& node, const Folding& f) {
  if (node.op_type != "Gather" || !f.static_input(node, 0)) return false;
  const auto& data = g.tensors[static_cast<std::size_t>(f.input(node, 0))].shape;
  return data && data->size() >= 2;
}

Folding fold_static(const Graph& g) {
  Folding f;
  f.kept.assign(g.nodes.size(), 0);
  f.is_static.assign(g.tensors.size(), 0);
  f.canonical.resize(g.tensors.size());
  f.is_output.assign(g.tensors.size(), 0);
  f.consumers.resize(g.tensors.size());
  for (std::size_t t = 0; t < g.tensors.size(); ++t) {
    f.canonical[t] = static_cast<int>(t);
    f.is_static[t] = g.tensors[t].initializer ? 1 : 0;
  }

  for (const Node& node : g.nodes) {
    const auto index = static_cast<std::size_t>(&node - g.nodes.data());
    if (is_alias_op(node.op_type) && !node.outputs.empty() && node.input(0) != kNoTensor) {
      const int source = f.input(node, 0);
      f.canonical[static_cast<std::size_t>(node.outputs.front())] = source;
      // Dropout's optional mask output is never used at inference; treat it as static.
      for (std::size_t k = 1; k < node.outputs.size(); ++k) {
        f.is_static[static_cast<std::size_t>(node.outputs[k])] = 1;
      }
      continue;
    }
    bool all_static = true;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i] != kNoTensor && !f.static_input(node, i)) all_static = false;
    }
    const bool folded =
        is_shape_reader(node.op_type) || (all_static && !is_embedding_lookup(g, node, f));
    if (folded) {
      for (int t : node.outputs)
        f.is_static[static_cast<std::size_t>(t)] = 1;
      continue;
    }
    if (!is_supported_op(node.op_type)) g.fail(node, "unsupported op");
    f.kept[index] = 1;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      const int t = f.input(node, i);
      if (t == kNoTensor || f.is_static[static_cast<std::size_t>(t)] != 0) continue;
      auto& readers = f.consumers[static_cast<std::size_t>(t)];
      if (readers.empty() || readers.back() != static_cast<int>(index)) {
        readers.push_back(static_cast<int>(index));
      }
    }
  }
  for (std::size_t t = 0; t < g.tensors.size(); ++t) {
    if (g.tensors[t].graph_output) f.is_output[static_cast<std::size_t>(f.canonical[t])] = 1;
  }
  return f;
}

}  // namespace memplace::onnx_import
