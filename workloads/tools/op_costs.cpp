#include "workloads/tools/op_costs.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace memplace::onnx_import {

namespace {

enum class Formula : std::uint8_t {
  none,            // moves or views data: its cost is the bytes it reads and writes
  conv,            // output elements x (Cin / group) x kernel = output elements x prod(W dims 1..)
  conv_transpose,  // input elements x (Cout / group) x kernel
  matmul,          // output elements x K (batch dims broadcast)
  gemm,            // M x N x K, plus M x N vector ops for the bias C
  pool_window,     // output elements x kernel window
  per_input,       // `ops` x input elements (reductions, global pooling)
  per_output,      // `ops` x output elements (elementwise, softmax, norms)
};

struct OpSpec {
  std::string_view op;
  OpKind kind;
  Formula formula;
  std::int64_t ops = 0;             // per-element factor for per_input / per_output
  std::uint8_t parameter_mask = 0;  // bit i: input i is a shape/index parameter
};

constexpr std::uint8_t bits(std::initializer_list<int> inputs) {
  std::uint8_t mask = 0;
  for (int i : inputs)
    mask = static_cast<std::uint8_t>(mask | (1u << i));
  return mask;
}

using K = OpKind;
using F = Formula;

constexpr std::array kOps = {
    // Compute.
    OpSpec{"Conv", K::conv, F::conv},
    OpSpec{"ConvTranspose", K::conv, F::conv_transpose},
    OpSpec{"MatMul", K::matmul, F::matmul},
    OpSpec{"Gemm", K::gemm, F::gemm},
    // Pooling and reductions.
    OpSpec{"MaxPool", K::pool, F::pool_window},
    OpSpec{"AveragePool", K::pool, F::pool_window},
    OpSpec{"LpPool", K::pool, F::pool_window},
    OpSpec{"GlobalAveragePool", K::pool, F::per_input, 1},
    OpSpec{"GlobalMaxPool", K::pool, F::per_input, 1},
    OpSpec{"GlobalLpPool", K::pool, F::per_input, 1},
    OpSpec{"ReduceMean", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceSum", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceMax", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceMin", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceProd", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceL1", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceL2", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceSumSquare", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ReduceLogSumExp", K::pool, F::per_input, 1, bits({1})},
    OpSpec{"ArgMax", K::pool, F::per_input, 1},
    OpSpec{"ArgMin", K::pool, F::per_input, 1},
    OpSpec{"TopK", K::pool, F::per_input, 1, bits({1})},
    // Softmax and normalisation.
    OpSpec{"Softmax", K::softmax, F::per_output, kSoftmaxOpsPerElement},
    OpSpec{"LogSoftmax", K::softmax, F::per_output, kSoftmaxOpsPerElement},
    OpSpec{"LayerNormalization", K::norm, F::per_output, kNormOpsPerElement},
    OpSpec{"InstanceNormalization", K::norm, F::per_output, kNormOpsPerElement},
    OpSpec{"GroupNormalization", K::norm, F::per_output, kNormOpsPerElement},
    OpSpec{"BatchNormalization", K::norm, F::per_output, kBatchNormOpsPerElement},
    OpSpec{"LpNormalization", K::norm, F::per_output, 3},
    // Elementwise: one vector op per output element.
    OpSpec{"Add", K::elementwise, F::per_output, 1},
    OpSpec{"Sub", K::elementwise, F::per_output, 1},
    OpSpec{"Mul", K::elementwise, F::per_output, 1},
    OpSpec{"Div", K::elementwise, F::per_output, 1},
    OpSpec{"Pow", K::elementwise, F::per_output, 1},
    OpSpec{"Mod", K::elementwise, F::per_output, 1},
    OpSpec{"Min", K::elementwise, F::per_output, 1},
    OpSpec{"Max", K::elementwise, F::per_output, 1},
    OpSpec{"Sum", K::elementwise, F::per_output, 1},
    OpSpec{"Mean", K::elementwise, F::per_output, 1},
    OpSpec{"Sqrt", K::elementwise, F::per_output, 1},
    OpSpec{"Reciprocal", K::elementwise, F::per_output, 1},
    OpSpec{"Exp", K::elementwise, F::per_output, 1},
    OpSpec{"Log", K::elementwise, F::per_output, 1},
    OpSpec{"Abs", K::elementwise, F::per_output, 1},
    OpSpec{"Neg", K::elementwise, F::per_output, 1},
    OpSpec{"Sign", K::elementwise, F::per_output, 1},
    OpSpec{"Floor", K::elementwise, F::per_output, 1},
    OpSpec{"Ceil", K::elementwise, F::per_output, 1},
    OpSpec{"Round", K::elementwise, F::per_output, 1},
    OpSpec{"Erf", K::elementwise, F::per_output, 1},
    OpSpec{"Sin", K::elementwise, F::per_output, 1},
    OpSpec{"Cos", K::elementwise, F::per_output, 1},
    OpSpec{"Relu", K::elementwise, F::per_output, 1},
    OpSpec{"LeakyRelu", K::elementwise, F::per_output, 1},
    OpSpec{"PRelu", K::elementwise, F::per_output, 1},
    OpSpec{"Elu", K::elementwise, F::per_output, 1},
    OpSpec{"Selu", K::elementwise, F::per_output, 1},
    OpSpec{"Celu", K::elementwise, F::per_output, 1},
    OpSpec{"Sigmoid", K::elementwise, F::per_output, 1},
    OpSpec{"HardSigmoid", K::elementwise, F::per_output, 1},
    OpSpec{"HardSwish", K::elementwise, F::per_output, 1},
    OpSpec{"Tanh", K::elementwise, F::per_output, 1},
    OpSpec{"Softplus", K::elementwise, F::per_output, 1},
    OpSpec{"Softsign", K::elementwise, F::per_output, 1},
    OpSpec{"Mish", K::elementwise, F::per_output, 1},
    OpSpec{"Gelu", K::elementwise, F::per_output, kGeluOpsPerElement},
    OpSpec{"Clip", K::elementwise, F::per_output, 1, bits({1, 2})},
    OpSpec{"Where", K::elementwise, F::per_output, 1},
    OpSpec{"Cast", K::elementwise, F::per_output, 1},
    OpSpec{"Not", K::elementwise, F::per_output, 1},
    OpSpec{"And", K::elementwise, F::per_output, 1},
    OpSpec{"Or", K::elementwise, F::per_output, 1},
    OpSpec{"Xor", K::elementwise, F::per_output, 1},
    OpSpec{"Equal", K::elementwise, F::per_output, 1},
    OpSpec{"Greater", K::elementwise, F::per_output, 1},
    OpSpec{"GreaterOrEqual", K::elementwise, F::per_output, 1},
    OpSpec{"Less", K::elementwise, F::per_output, 1},
    OpSpec{"LessOrEqual", K::elementwise, F::per_output, 1},
    OpSpec{"QuantizeLinear", K::elementwise, F::per_output, 1, bits({1, 2})},
    OpSpec{"DequantizeLinear", K::elementwise, F::per_output, 1, bits({1, 2})},
    // Data movement and views: no arithmetic.
    OpSpec{"Gather", K::other, F::none, 0,
           bits({1})},  // op_kind() turns table lookups into embedding
    OpSpec{"GatherElements", K::other, F::none, 0, bits({1})},
    OpSpec{"GatherND", K::other, F::none, 0, bits({1})},
    OpSpec{"Concat", K::concat, F::none},
    OpSpec{"Reshape", K::other, F::none, 0, bits({1})},
    OpSpec{"Flatten", K::other, F::none},
    OpSpec{"Transpose", K::other, F::none},
    OpSpec{"Squeeze", K::other, F::none, 0, bits({1})},
    OpSpec{"Unsqueeze", K::other, F::none, 0, bits({1})},
    OpSpec{"Slice", K::other, F::none, 0, bits({1, 2, 3, 4})},
    OpSpec{"Split", K::other, F::none, 0, bits({1})},
    OpSpec{"Expand", K::other, F::none, 0, bits({1})},
    OpSpec{"Tile", K::other, F::none, 0, bits({1})},
    OpSpec{"Pad", K::other, F::none, 0, bits({1, 2, 3})},
    OpSpec{"DepthToSpace", K::other, F::none},
    OpSpec{"SpaceToDepth", K::other, F::none},
    OpSpec{"Resize", K::other, F::per_output, 1, bits({1, 2, 3})},  // interpolation
    OpSpec{"Upsample", K::other, F::per_output, 1, bits({1})},
};

const OpSpec* find_spec(std::string_view op_type) {
  const auto* it =
      std::find_if(kOps.begin(), kOps.end(), [&](const OpSpec& s) { return s.op == op_type; });
  return it == kOps.end() ? nullptr : &*it;
}

std::int64_t product(const Graph& g, const Node& node, std::span<const std::int64_t> dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims)
    n = g.multiply(node, n, d);
  return n;
}

}  // namespace

bool is_supported_op(std::string_view op_type) {
  return find_spec(op_type) != nullptr;
}

bool is_alias_op(std::string_view op_type) {
  return op_type == "Identity" || op_type == "Dropout";
}

bool is_shape_reader(std::string_view op_type) {
  return op_type == "Constant" || op_type == "Shape" || op_type == "Size";
}

bool is_parameter_input(std::string_view op_type, std::size_t index) {
  const OpSpec* spec = find_spec(op_type);
  return spec != nullptr && index < 8 && (spec->parameter_mask >> index & 1u) != 0;
}

bool is_activation_op(std::string_view op_type) {
  constexpr std::array<std::string_view, 13> kActivations = {
      "Relu",    "Clip",        "LeakyRelu", "PRelu", "Elu",      "Selu", "Celu",
      "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",  "Softplus", "Mish"};
  return std::find(kActivations.begin(), kActivations.end(), op_type) != kActivations.end();
}

OpKind op_kind(const Graph& g, const Node& node, bool first_input_static) {
  const OpSpec* spec = find_spec(node.op_type);
  if (spec == nullptr) g.fail(node, "unsupported op");
  if (node.op_type == "Gather" && first_input_static) return OpKind::embedding;
  if (node.op_type == "Conv") {
    const std::int64_t group = node.attribute("group", 1);
    const auto& x = g.shape(node, node.input(0));
    if (group > 1 && x.size() >= 2 && group == x[1]) return OpKind::depthwise_conv;
  }
  return spec->kind;
}

NodeCost node_cost(const Graph& g, const Node& node) {
  const OpSpec* spec = find_spec(node.op_type);
  if (spec == nullptr) g.fail(node, "unsupported op");
  if (node.outputs.empty()) g.fail(node, "the node has no output");
  auto out_elements = [&] { return g.elements(node, node.outputs.front()); };
  NodeCost cost;
  switch (spec->formula) {
    case Formula::none:
      break;
    case Formula::conv:
    case Formula::conv_transpose: {
      const auto& w = g.shape(node, node.input(1));
      if (w.size() < 3) g.fail(node, "the weight must have rank >= 3");
      const std::int64_t per_element = product(g, node, std::span(w).subspan(1));
      const std::int64_t elements =
          spec->formula == Formula::conv ? out_elements() : g.elements(node, node.input(0));
      cost.macs = g.multiply(node, elements, per_element);
      if (node.input(2) != kNoTensor) cost.vector_ops = out_elements();  // the bias
      break;
    }
    case Formula::matmul: {
      const auto& a = g.shape(node, node.input(0));
      if (a.empty()) g.fail(node, "a MatMul operand must have rank >= 1");
      cost.macs = g.multiply(node, out_elements(), a.back());
      break;
    }
    case Formula::gemm: {
      const auto& a = g.shape(node, node.input(0));
      if (a.size() != 2) g.fail(node, "Gemm's A must have rank 2");
      const std::int64_t k = node.attribute("transA", 0) != 0 ? a[0] : a[1];
      cost.macs = g.multiply(node, out_elements(), k);
      if (node.input(2) != kNoTensor) cost.vector_ops = out_elements();
      break;
    }
    case Formula::pool_window: {
      const auto kernel = node.attribute_list("kernel_shape");
      if (!kernel) g.fail(node, "missing attribute kernel_shape");
      if (std::any_of(kernel->begin(), kernel->end(), [](std::int64_t k) { return k < 1; })) {
        g.fail(node, "kernel_shape must be positive");
      }
      cost.vector_ops = g.multiply(node, out_elements(), product(g, node, *kernel));
      break;
    }
    case Formula::per_input:
      cost.vector_ops = g.multiply(node, spec->ops, g.elements(node, node.input(0)));
      break;
    case Formula::per_output:
      cost.vector_ops = g.multiply(node, spec->ops, out_elements());
      break;
  }
  return cost;
}

}  // namespace memplace::onnx_import
