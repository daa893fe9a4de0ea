// The ONNX op table: which ops the importer understands, their op kind in memplace's vocabulary,
// which of their inputs are shape/index parameters (never weights), and the cost formulas
// (docs/workloads.md lists them). Everything here is per ONNX node; fusion sums nodes.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/inputs/workload.hpp"
#include "workloads/tools/onnx_graph.hpp"

namespace memplace::onnx_import {

// Vector operations charged per element, for ops that are several operations in hardware.
inline constexpr std::int64_t kSoftmaxOpsPerElement = 5;  // max, subtract, exp, sum, divide
inline constexpr std::int64_t kNormOpsPerElement = 8;  // mean, sub, square, mean, rsqrt, 3 affine
inline constexpr std::int64_t kBatchNormOpsPerElement = 2;  // folded scale and shift
inline constexpr std::int64_t kGeluOpsPerElement = 5;       // the erf form's five elementwise ops

struct NodeCost {
  std::int64_t macs = 0;
  std::int64_t vector_ops = 0;
};

// True if the importer has a cost formula for `op_type` (folded and alias ops need none).
bool is_supported_op(std::string_view op_type);
// Identity and Dropout: the output is the input (at inference).
bool is_alias_op(std::string_view op_type);
// Ops whose output is known at compile time whatever their input (Shape, Size, Constant).
bool is_shape_reader(std::string_view op_type);
// True if input `index` of `op_type` is a shape or index parameter (Reshape's shape, Slice's
// starts, Clip's bounds, a Gather's indices ...): static data that is not a weight.
bool is_parameter_input(std::string_view op_type, std::size_t index);
// Activations that a convolution can absorb as its epilogue.
bool is_activation_op(std::string_view op_type);

// `first_input_static`: the node's first input is known at compile time (a Gather from a weight
// table is an embedding; from an activation it only moves data).
OpKind op_kind(const Graph& g, const Node& node, bool first_input_static);
NodeCost node_cost(const Graph& g, const Node& node);

}  // namespace memplace::onnx_import
