#include "workloads/tools/onnx_graph.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <iterator>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "base/errors.hpp"
#include "workloads/tools/shape_folding.hpp"

namespace memplace::onnx_import {

std::int64_t Node::attribute(std::string_view key, std::int64_t fallback) const {
  for (const auto& [name, values] : int_attributes) {
    if (name == key && values.size() == 1) return values.front();
  }
  return fallback;
}

std::optional<std::vector<std::int64_t>> Node::attribute_list(std::string_view key) const {
  for (const auto& [name, values] : int_attributes) {
    if (name == key) return values;
  }
  return std::nullopt;
}

void Graph::fail(std::string_view message) const {
  std::string text = origin;
  text += ": ";
  text += message;
  throw InputError(text);
}

void Graph::fail(const Node& node, std::string_view message) const {
  std::string text = "node '";
  text += label(node);
  text += "' (";
  text += node.op_type;
  text += "): ";
  text += message;
  fail(text);
}

std::string Graph::label(const Node& node) const {
  if (!node.name.empty()) return node.name;
  std::string text = node.op_type;
  text += '#';
  text += std::to_string(&node - nodes.data());
  return text;
}

const std::vector<std::int64_t>& Graph::shape(const Node& node, int t) const {
  if (t < 0 || static_cast<std::size_t>(t) >= tensors.size()) {
    fail(node, "a required input is missing");
  }
  const Tensor& tensor = tensors[static_cast<std::size_t>(t)];
  if (!tensor.shape) {
    if (!unset_dims.empty()) {
      std::string dims;
      for (const std::string& d : unset_dims)
        dims += (dims.empty() ? "" : ", ") + d;
      const bool one = unset_dims.size() == 1;
      fail(std::string(one ? "the symbolic dim " : "the symbolic dims ") + dims +
           (one ? " has" : " have") + " no value, so tensors such as '" + tensor.name +
           "' (read by node '" + label(node) +
           "') have no static shape: give it with --dim NAME=VALUE");
    }
    std::string message = "tensor '";
    message += tensor.name;
    message += "' has no static shape (export with fixed input sizes, or set the dynamic dims)";
    fail(node, message);
  }
  return *tensor.shape;
}

std::int64_t Graph::elements(const Node& node, int t) const {
  std::int64_t n = 1;
  for (std::int64_t d : shape(node, t))
    n = multiply(node, n, d);
  return n;
}

std::int64_t Graph::multiply(const Node& node, std::int64_t a, std::int64_t b) const {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) fail(node, "tensor sizes overflow 64 bits");
  return product;
}

namespace {

constexpr std::int64_t kMaxDim = std::int64_t{1} << 40;  // guards products against overflow

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open the file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path.string() + ": cannot read the file");
  return bytes;
}

// Static dims of a tensor type; nullopt if any dim is symbolic or the rank is unknown.
std::optional<std::vector<std::int64_t>> static_shape(const onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return std::nullopt;
  std::vector<std::int64_t> dims;
  for (const auto& d : type.tensor_type().shape().dim()) {
    if (!d.has_dim_value() || d.dim_value() < 0 || d.dim_value() > kMaxDim) return std::nullopt;
    dims.push_back(d.dim_value());
  }
  return dims;
}

std::optional<std::vector<std::int64_t>> tensor_dims(const onnx::TensorProto& t) {
  std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
  for (std::int64_t d : dims) {
    if (d < 0 || d > kMaxDim) return std::nullopt;
  }
  return dims;
}

// The shape of a Constant node's value, read from its attribute (exact even without inference).
std::optional<std::vector<std::int64_t>> constant_shape(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    if (a.name() == "value" && a.has_t()) return tensor_dims(a.t());
    if (a.name() == "value_float" || a.name() == "value_int" || a.name() == "value_string") {
      return std::vector<std::int64_t>{};
    }
    if (a.name() == "value_floats") return std::vector<std::int64_t>{a.floats_size()};
    if (a.name() == "value_ints") return std::vector<std::int64_t>{a.ints_size()};
  }
  return std::nullopt;
}

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string origin) { graph_.origin = std::move(origin); }

  Graph build(const onnx::GraphProto& g) {
    for (const auto& init : g.initializer()) {
      Tensor& t = tensor(init.name());
      t.initializer = true;
      t.shape = tensor_dims(init);
    }
    for (const auto& input : g.input()) {
      Tensor& t = tensor(input.name());
      if (t.initializer) continue;  // IR < 4 lists initializers among the inputs
      t.graph_input = true;
      t.shape = static_shape(input.type());
    }
    for (const auto& info : g.value_info()) {
      Tensor& t = tensor(info.name());
      if (!t.initializer) t.shape = static_shape(info.type());
    }
    for (const auto& output : g.output()) {
      Tensor& t = tensor(output.name());
      t.graph_output = true;
      if (auto s = static_shape(output.type())) t.shape = s;
    }

    std::vector<Node> nodes;
    for (const auto& n : g.node())
      nodes.push_back(convert(n, nodes.size()));
    graph_.nodes = topological_order(std::move(nodes));
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      for (int t : graph_.nodes[i].outputs)
        graph_.tensors[t].producer = static_cast<int>(i);
    }
    return std::move(graph_);
  }

 private:
  Tensor& tensor(const std::string& name) {
    auto [it, fresh] = index_.emplace(name, static_cast<int>(graph_.tensors.size()));
    if (fresh) {
      Tensor t;
      t.name = name;
      graph_.tensors.push_back(std::move(t));
    }
    return graph_.tensors[static_cast<std::size_t>(it->second)];
  }

  Node convert(const onnx::NodeProto& n, std::size_t position) {
    Node node;
    node.name = n.name();
    node.op_type = n.op_type();
    if (!n.domain().empty() && n.domain() != "ai.onnx") {
      std::string message = "ops of domain '";
      message += n.domain();
      message += "' are not supported";
      fail_at(node, position, message);
    }
    for (const auto& a : n.attribute()) {
      if (a.has_g() || a.graphs_size() > 0) {
        fail_at(node, position, "control flow (subgraph attributes) is not supported");
      }
      if (a.type() == onnx::AttributeProto::INT) {
        node.int_attributes.emplace_back(a.name(), std::vector<std::int64_t>{a.i()});
      } else if (a.type() == onnx::AttributeProto::INTS) {
        node.int_attributes.emplace_back(
            a.name(), std::vector<std::int64_t>(a.ints().begin(), a.ints().end()));
      }
    }
    for (const auto& name : n.input()) {
      node.inputs.push_back(name.empty() ? kNoTensor : index_of(name));
    }
    for (const auto& name : n.output()) {
      if (name.empty()) continue;  // an omitted optional output
      const int t = index_of(name);
      if (produced_.contains(t)) {
        std::string message = "tensor '";
        message += name;
        message += "' is produced by two nodes";
        fail_at(node, position, message);
      }
      const Tensor& existing = graph_.tensors[static_cast<std::size_t>(t)];
      if (existing.initializer || existing.graph_input) {
        std::string message = "output '";
        message += name;
        message += "' is also a graph input or an initializer";
        fail_at(node, position, message);
      }
      produced_.insert(t);
      node.outputs.push_back(t);
      if (n.op_type() == "Constant") {
        if (auto s = constant_shape(n)) graph_.tensors[static_cast<std::size_t>(t)].shape = s;
      }
    }
    // Every ONNX op has a required output; a node without one (found by fuzzing: a Conv whose
    // output name was empty) would reach the fusion passes, which follow a node's first output.
    if (node.outputs.empty()) fail_at(node, position, "no output (every op has at least one)");
    return node;
  }

  int index_of(const std::string& name) {
    tensor(name);
    return index_.at(name);
  }

  [[noreturn]] void fail_at(const Node& node, std::size_t position, std::string_view message) {
    std::string text = "node '";
    if (node.name.empty()) {
      text += node.op_type;
      text += '#';
      text += std::to_string(position);
    } else {
      text += node.name;
    }
    text += "' (";
    text += node.op_type;
    text += "): ";
    text += message;
    graph_.fail(text);
  }

  // Kahn's algorithm, taking the earliest ready node in file order (keeps a valid file's order).
  std::vector<Node> topological_order(std::vector<Node> nodes) {
    std::unordered_map<int, std::size_t> producer;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      for (int t : nodes[i].outputs)
        producer.emplace(t, i);
    }
    std::vector<std::vector<std::size_t>> successors(nodes.size());
    std::vector<std::size_t> pending(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      for (int t : nodes[i].inputs) {
        if (t == kNoTensor) continue;
        const Tensor& tensor = graph_.tensors[static_cast<std::size_t>(t)];
        if (auto it = producer.find(t); it != producer.end()) {
          successors[it->second].push_back(i);
          ++pending[i];
        } else if (!tensor.initializer && !tensor.graph_input) {
          std::string message = "input '";
          message += tensor.name;
          message += "' is not a graph input, an initializer or any node's output";
          fail_at(nodes[i], i, message);
        }
      }
    }
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (pending[i] == 0) ready.push(i);
    }
    std::vector<std::size_t> order;
    while (!ready.empty()) {
      const std::size_t i = ready.top();
      ready.pop();
      order.push_back(i);
      for (std::size_t s : successors[i]) {
        if (--pending[s] == 0) ready.push(s);
      }
    }
    if (order.size() != nodes.size()) {
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (pending[i] != 0) fail_at(nodes[i], i, "the graph has a cycle through this node");
      }
    }
    std::vector<Node> sorted;
    sorted.reserve(nodes.size());
    for (std::size_t i : order)
      sorted.push_back(std::move(nodes[i]));
    return sorted;
  }

  Graph graph_;
  std::unordered_map<std::string, int> index_;
  std::unordered_set<int> produced_;
};

}  // namespace

namespace {

// Gives the symbolic dims of the graph inputs their values, by name; returns those left without
// one ("'seq' (input 'input_ids')"), each once.
std::vector<std::string> set_input_dims(onnx::ModelProto& model, const InputShapes& shapes,
                                        const std::string& origin) {
  std::vector<std::string> unset;
  std::set<std::string> unset_names;
  std::unordered_set<std::string> initializers;
  for (const auto& init : model.graph().initializer())
    initializers.insert(init.name());
  std::set<std::string> seen;
  for (auto& input : *model.mutable_graph()->mutable_input()) {
    if (initializers.contains(input.name()) || !input.type().has_tensor_type()) continue;
    auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (auto& dim : *shape->mutable_dim()) {
      if (dim.has_dim_value()) continue;
      const std::string name = dim.has_dim_param() ? dim.dim_param() : std::string();
      seen.insert(name);
      if (const auto it = shapes.dims.find(name); it != shapes.dims.end())
        dim.set_dim_value(it->second);
      else if (shapes.other_dims > 0)
        dim.set_dim_value(shapes.other_dims);
      else if (unset_names.insert(name).second)
        unset.push_back((name.empty() ? std::string("(unnamed)") : "'" + name + "'") + " (input '" +
                        input.name() + "')");
    }
  }
  for (const auto& [name, value] : shapes.dims) {
    if (seen.contains(name)) continue;
    std::string known;
    for (const std::string& s : seen)
      if (!s.empty()) known += (known.empty() ? "" : ", ") + s;
    throw InputError(origin + ": no graph input has a dim named '" + name + "' (" +
                     (known.empty() ? "the inputs have no named dims" : "named dims: " + known) +
                     ")");
  }
  return unset;
}

// The most a dim may be, as the exporter wrote it into the model's metadata
// ("memplace.max_dim.kv_length" -> "131071: a context of 131072 positions"): a value above it
// would import a graph the model cannot run (its position table is shorter).
void check_dim_limits(const onnx::ModelProto& model, const InputShapes& shapes,
                      const std::string& origin) {
  constexpr std::string_view kPrefix = "memplace.max_dim.";
  for (const auto& entry : model.metadata_props()) {
    if (!entry.key().starts_with(kPrefix)) continue;
    const std::string dim = entry.key().substr(kPrefix.size());
    const auto given = shapes.dims.find(dim);
    if (given == shapes.dims.end()) continue;
    std::size_t used = 0;
    long long most = 0;
    try {
      most = std::stoll(entry.value(), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0)
      throw InputError(origin + ": metadata " + entry.key() + " '" + entry.value() +
                       "' does not start with a number");
    if (given->second > most) {
      const std::string why = entry.value().substr(std::min(entry.value().size(), used + 2));
      throw InputError(origin + ": dim " + dim + "=" + std::to_string(given->second) +
                       " is above " + std::to_string(most) + ", the most this model allows" +
                       (why.empty() ? "" : " (" + why + ")"));
    }
  }
}

// Refuses the attributes ONNX's own shape inference would divide by when zero (strides,
// dilations, kernel_shape, group, blocksize, num_outputs: always at least 1 in a valid model), in
// every node of the graph and its subgraphs: libonnx checks none of them, and a zero stride
// crashed the importer with a division by zero (found by fuzzing, fuzz/regressions/onnx_model).
void check_positive_attributes(const onnx::GraphProto& graph, const std::string& origin) {
  static const std::set<std::string, std::less<>> kPositive = {
      "strides", "dilations", "kernel_shape", "group", "blocksize", "num_outputs"};
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.has_g()) check_positive_attributes(a.g(), origin);
      for (const onnx::GraphProto& g : a.graphs())
        check_positive_attributes(g, origin);
      if (!kPositive.contains(a.name())) continue;
      const bool zero_or_less =
          (a.has_i() && a.i() < 1) ||
          std::any_of(a.ints().begin(), a.ints().end(), [](std::int64_t v) { return v < 1; });
      if (zero_or_less)
        throw InputError(origin + ": node '" + node.name() + "' (" + node.op_type() +
                         "): attribute " + a.name() + ": every value must be at least 1");
    }
  }
}

// Moves the graph inputs that match a pattern into data-less initializers of their shape.
void make_inputs_static(onnx::ModelProto& model, const InputShapes& shapes,
                        const std::string& origin) {
  auto* graph = model.mutable_graph();
  std::vector<bool> used(shapes.static_inputs.size(), false);
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const auto& input : graph->input()) {
    bool match = false;
    for (std::size_t p = 0; p < shapes.static_inputs.size(); ++p)
      if (matches_pattern(shapes.static_inputs[p], input.name())) match = used[p] = true;
    if (!match) {
      *kept.Add() = input;
      continue;
    }
    onnx::TensorProto* init = graph->add_initializer();
    init->set_name(input.name());
    init->set_data_type(input.type().tensor_type().elem_type());
    for (const auto& dim : input.type().tensor_type().shape().dim()) {
      if (!dim.has_dim_value())
        throw InputError(origin + ": static input '" + input.name() + "': dim '" + dim.dim_param() +
                         "' has no value (give it one with a dim)");
      init->add_dims(dim.dim_value());
    }
  }
  for (std::size_t p = 0; p < used.size(); ++p)
    if (!used[p])
      throw InputError(origin + ": no graph input matches the static input '" +
                       shapes.static_inputs[p] + "'");
  graph->mutable_input()->Swap(&kept);
}

}  // namespace

bool matches_pattern(std::string_view pattern, std::string_view name) {
  const std::size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == name;
  const std::string_view head = pattern.substr(0, star);
  if (!name.starts_with(head)) return false;
  const std::string_view rest = pattern.substr(star + 1);
  for (std::size_t from = head.size(); from <= name.size(); ++from)
    if (matches_pattern(rest, name.substr(from))) return true;
  return false;
}

Graph load_graph(const std::filesystem::path& path, const InputShapes& shapes) {
  const std::string origin = path.string();
  const std::string bytes = read_bytes(path);
  if (bytes.empty()) throw InputError(origin + ": empty file (expected an ONNX model)");
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    throw InputError(origin + ": larger than 2 GiB; save the weights as ONNX external data");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw InputError(origin + ": not an ONNX model (the protobuf does not parse; truncated?)");
  }
  if (!model.has_graph() || model.graph().node_size() == 0) {
    throw InputError(origin + ": not an ONNX model (no graph or no nodes)");
  }
  for (const auto& [name, value] : shapes.dims)
    if (value <= 0) throw InputError(origin + ": dim " + name + ": must be at least 1");
  check_dim_limits(model, shapes, origin);
  std::vector<std::string> unset = set_input_dims(model, shapes, origin);
  make_inputs_static(model, shapes, origin);
  check_positive_attributes(model.graph(), origin);
  infer_shapes_folding(model, origin);
  Graph graph = GraphBuilder(origin).build(model.graph());
  graph.unset_dims = std::move(unset);
  return graph;
}

}  // namespace memplace::onnx_import
