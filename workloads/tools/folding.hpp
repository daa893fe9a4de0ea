// Static folding: which ONNX nodes disappear before fusion.
//
// A value is static if it is known at compile time: initializers, Constant outputs, shapes (the
// output of Shape/Size, since every shape is static) and anything computed from static values
// only. Nodes that produce static values are folded away (shape arithmetic, constant
// subexpressions); a static tensor read by a kept node is that layer's weight (or a parameter such
// as Reshape's shape). Identity and Dropout are aliases of their input. One exception keeps the
// graph honest: a Gather from a weight table is an embedding layer even if its indices are static.
#pragma once

#include <cstdint>
#include <vector>

#include "workloads/tools/onnx_graph.hpp"

namespace memplace::onnx_import {

struct Folding {
  std::vector<std::uint8_t> kept;       // per node: 1 if it becomes (part of) a layer
  std::vector<std::uint8_t> is_static;  // per tensor: 1 if known at compile time
  std::vector<int> canonical;           // per tensor: the tensor it aliases, or itself
  std::vector<std::uint8_t> is_output;  // per canonical tensor: a graph output reads it
  // Per canonical tensor: the kept nodes that read it, in schedule order, each once.
  std::vector<std::vector<int>> consumers;

  bool static_input(const Node& node, std::size_t i) const;
  // Canonical tensor of input i, or kNoTensor.
  int input(const Node& node, std::size_t i) const;
};

Folding fold_static(const Graph& g);

// A Gather whose data (input 0) is a static table of rank >= 2.
bool is_embedding_lookup(const Graph& g, const Node& node, const Folding& f);

}  // namespace memplace::onnx_import
