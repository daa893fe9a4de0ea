// A protobuf-free view of an ONNX graph: the tensors with their static shapes and the nodes in
// topological order. Only its .cpp and shape_folding.cpp touch the ONNX/protobuf API, so the fusion
// rules and the cost formulas work on plain structs (and compile without the ONNX headers).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace memplace::onnx_import {

inline constexpr int kNoTensor = -1;  // an omitted optional input

struct Tensor {
  std::string name;
  std::optional<std::vector<std::int64_t>> shape;  // nullopt: unknown or symbolic dims
  bool initializer = false;                        // a weight or constant stored in the file
  bool graph_input = false;                        // fed at run time (not an initializer)
  bool graph_output = false;
  int producer = -1;  // node index, -1 for initializers and graph inputs
};

struct Node {
  std::string name;  // as in the file (may be empty)
  std::string op_type;
  std::vector<int> inputs;   // tensor indices, kNoTensor for an omitted optional input
  std::vector<int> outputs;  // tensor indices
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> int_attributes;

  // An INT or INTS attribute; `fallback` if absent.
  std::int64_t attribute(std::string_view key, std::int64_t fallback) const;
  std::optional<std::vector<std::int64_t>> attribute_list(std::string_view key) const;
  // The tensor index of input `i`, or kNoTensor if it is omitted.
  int input(std::size_t i) const { return i < inputs.size() ? inputs[i] : kNoTensor; }
};

struct Graph {
  std::string origin;  // the file name, for error messages
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;  // topological order (stable: file order where the file allows)
  // The graph inputs' symbolic dims that were given no value, as "'seq' (input 'input_ids')": a
  // tensor without a static shape is almost always their doing, and the error says so.
  std::vector<std::string> unset_dims;

  // "<origin>: node '<name>' (<op>): <message>", the one-line error every check uses.
  [[noreturn]] void fail(const Node& node, std::string_view message) const;
  [[noreturn]] void fail(std::string_view message) const;
  // A readable label for a node: its name, or "<op>#<index>" if it has none.
  std::string label(const Node& node) const;
  // The shape of tensor `t` read or written by `node`; throws a node-naming InputError if unknown.
  const std::vector<std::int64_t>& shape(const Node& node, int t) const;
  // Its element count (a scalar has one).
  std::int64_t elements(const Node& node, int t) const;
  // a * b for sizes and costs; throws a node-naming InputError instead of overflowing.
  std::int64_t multiply(const Node& node, std::int64_t a, std::int64_t b) const;
};

// What the graph's inputs are, before shape inference.
struct InputShapes {
  // Values of the graph inputs' symbolic dims by name ("batch" -> 8); a dim no entry names takes
  // `other_dims` (0: it stays symbolic). Every name must be a symbolic dim of some input.
  std::map<std::string, std::int64_t, std::less<>> dims;
  std::int64_t other_dims = 0;
  // Graph inputs that are data the model reads, not its inputs (a decode step's KV cache), by
  // name; `*` matches any run of characters. Each becomes an initializer of its (fixed) shape.
  // Every pattern must match some input.
  std::vector<std::string> static_inputs;
};

// Reads an ONNX model, sets its inputs' shapes, runs ONNX shape inference (value_info) and
// flattens the main graph. Throws InputError naming the file (and the node, or the dim or input)
// for anything it cannot use: unreadable, empty, not a protobuf ModelProto, no graph, dangling
// tensor names, cycles, control-flow subgraphs, a dim or a static input no graph input has.
Graph load_graph(const std::filesystem::path& path, const InputShapes& shapes = {});

// Whether `name` matches `pattern`, in which `*` matches any run of characters.
bool matches_pattern(std::string_view pattern, std::string_view name);

}  // namespace memplace::onnx_import
