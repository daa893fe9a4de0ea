#include "workloads/tools/onnx_import.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "workloads/tools/folding.hpp"
#include "workloads/tools/fusion.hpp"
#include "workloads/tools/onnx_graph.hpp"
#include "workloads/tools/op_costs.hpp"

namespace memplace {

namespace onnx_import {
namespace {

// Builds one layer per group: sums the node costs, sizes the weights, finds the edges.
class LayerBuilder {
 public:
  LayerBuilder(const Graph& g, const Folding& f, std::int64_t element_bytes)
      : g_(g), f_(f), bytes_(element_bytes) {}

  // `group_of` maps node index -> layer index for the layers built so far.
  Layer build(const Group& group, const std::unordered_map<int, std::size_t>& layer_of_node) {
    Layer layer;
    const Node& anchor = g_.nodes[static_cast<std::size_t>(group.anchor)];
    layer.op = group.kind ? *group.kind : op_kind(g_, anchor, f_.static_input(anchor, 0));
    const std::set<int> members(group.nodes.begin(), group.nodes.end());
    const bool conv_group = anchor.op_type == "Conv" || anchor.op_type == "ConvTranspose";
    const bool conv_has_bias = conv_group && anchor.input(2) != kNoTensor;

    std::unordered_set<int> weights_seen;
    std::unordered_set<int> inputs_seen;
    std::vector<std::pair<std::size_t, std::int64_t>> edges;  // (producer layer, bytes)
    for (int n : group.nodes) {
      const Node& node = g_.nodes[static_cast<std::size_t>(n)];
      if (conv_group && node.op_type == "BatchNormalization") {
        // Folded into the conv: its scale goes into the conv weights, its shift is the bias.
        if (!conv_has_bias) {
          add(node, layer.vector_ops, g_.elements(node, node.outputs.front()));
          const std::int64_t bias = bytes(node, channels(node));
          add_weight(node, layer, bias, bias);
        }
        continue;
      }
      const NodeCost cost = node_cost(g_, node);
      add(node, layer.macs, cost.macs);
      add(node, layer.vector_ops, cost.vector_ops);
      if (node.op_type == "BatchNormalization") {  // standalone: folded scale and shift
        const std::int64_t scale_shift = bytes(node, g_.multiply(node, 2, channels(node)));
        add_weight(node, layer, scale_shift, scale_shift);
      } else if (is_embedding_lookup(g_, node, f_)) {
        add_embedding(layer, node);
      } else {
        add_static_weights(layer, node, weights_seen);
      }
      for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const int t = f_.input(node, i);
        if (t == kNoTensor || f_.is_static[static_cast<std::size_t>(t)] != 0) continue;
        if (!inputs_seen.insert(t).second) continue;
        const Tensor& tensor = g_.tensors[static_cast<std::size_t>(t)];
        if (tensor.producer < 0) {
          add(node, layer.external_input_bytes, bytes(node, g_.elements(node, t)));
        } else if (!members.contains(tensor.producer)) {
          add_edge(edges, layer_of_node.at(tensor.producer), bytes(node, g_.elements(node, t)));
        }
      }
    }
    for (const auto& [producer, bytes] : edges)
      layer.inputs.push_back(InputEdge{producer, bytes});
    layer.output_bytes = output_bytes(group, members);
    return layer;
  }

 private:
  // Sizes come from the file: every sum and product is checked, never overflows.
  void add(const Node& node, std::int64_t& total, std::int64_t value) const {
    if (__builtin_add_overflow(total, value, &total)) g_.fail(node, "sizes overflow 64 bits");
  }
  std::int64_t bytes(const Node& node, std::int64_t elements) const {
    return g_.multiply(node, elements, bytes_);
  }
  void add_weight(const Node& node, Layer& layer, std::int64_t footprint,
                  std::int64_t traffic) const {
    add(node, layer.weight_bytes, footprint);
    add(node, layer.weight_traffic_bytes, traffic);
  }

  static void add_edge(std::vector<std::pair<std::size_t, std::int64_t>>& edges,
                       std::size_t producer, std::int64_t bytes) {
    auto it = std::find_if(edges.begin(), edges.end(),
                           [&](const auto& e) { return e.first == producer; });
    if (it == edges.end()) {
      edges.emplace_back(producer, bytes);
    } else {
      it->second += bytes;  // several tensors of one producer: one edge
    }
  }

  std::int64_t channels(const Node& node) const {
    const auto& x = g_.shape(node, node.input(0));
    if (x.size() < 2) g_.fail(node, "BatchNormalization needs a channel dimension");
    return x[1];
  }

  // Static inputs that are data (not shape parameters) and not scalars (immediates) are weights.
  void add_static_weights(Layer& layer, const Node& node, std::unordered_set<int>& seen) const {
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      const int t = f_.input(node, i);
      if (t == kNoTensor || f_.is_static[static_cast<std::size_t>(t)] == 0) continue;
      if (is_parameter_input(node.op_type, i)) continue;
      const std::int64_t elements = g_.elements(node, t);
      if (elements <= 1 || !seen.insert(t).second) continue;
      add_weight(node, layer, bytes(node, elements), bytes(node, elements));
    }
  }

  // The whole table is resident; only the gathered rows are read.
  void add_embedding(Layer& layer, const Node& node) const {
    const auto& table = g_.shape(node, f_.input(node, 0));
    std::int64_t axis = node.attribute("axis", 0);
    const auto rank = static_cast<std::int64_t>(table.size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) g_.fail(node, "axis out of range");
    const std::int64_t table_elements = g_.elements(node, f_.input(node, 0));
    const std::int64_t rows = table[static_cast<std::size_t>(axis)];
    const std::int64_t row_elements = rows == 0 ? 0 : table_elements / rows;
    const std::int64_t indices = g_.elements(node, f_.input(node, 1));
    add_weight(node, layer, bytes(node, table_elements),
               bytes(node, g_.multiply(node, indices, row_elements)));
  }

  // Tensors of the group read outside it (or returned by the graph).
  std::int64_t output_bytes(const Group& group, const std::set<int>& members) const {
    std::int64_t total = 0;
    for (int n : group.nodes) {
      const Node& node = g_.nodes[static_cast<std::size_t>(n)];
      for (int t : node.outputs) {
        const auto& readers = f_.consumers[static_cast<std::size_t>(t)];
        const bool escapes = f_.is_output[static_cast<std::size_t>(t)] != 0 ||
                             std::any_of(readers.begin(), readers.end(),
                                         [&](int r) { return !members.contains(r); });
        if (escapes) add(node, total, bytes(node, g_.elements(node, t)));
      }
    }
    return total;
  }

  const Graph& g_;
  const Folding& f_;
  std::int64_t bytes_;
};

// "/encoder.0/Erf" -> "encoder.0/Erf"; with `rename` "Gelu": "encoder.0/Gelu".
std::string layer_name(const Graph& g, const Group& group) {
  std::string name = g.label(g.nodes[static_cast<std::size_t>(group.anchor)]);
  while (!name.empty() && name.front() == '/')
    name.erase(name.begin());
  if (!group.rename.empty()) {
    const auto slash = name.rfind('/');
    name = slash == std::string::npos ? group.rename : name.substr(0, slash + 1) + group.rename;
  }
  return name.empty() ? std::string("layer") : name;
}

std::string unique_name(std::string name, std::unordered_set<std::string>& used) {
  if (used.insert(name).second) return name;
  for (int k = 2;; ++k) {
    std::string candidate = name;
    candidate += '_';
    candidate += std::to_string(k);
    if (used.insert(candidate).second) return candidate;
  }
}

}  // namespace
}  // namespace onnx_import

Workload import_onnx(const std::filesystem::path& model, const ImportOptions& options) {
  using namespace onnx_import;
  if (options.element_bytes < 1 || options.element_bytes > 16) {
    throw InputError(model.string() + ": element_bytes must be between 1 and 16");
  }
  if (options.dynamic_dim < 0) throw InputError(model.string() + ": dynamic_dim must be >= 0");
  const Graph g = load_graph(model, {.dims = options.dims,
                                     .other_dims = options.dynamic_dim,
                                     .static_inputs = options.static_inputs});
  const Folding f = fold_static(g);
  const std::vector<Group> groups = fuse(g, f, options.fusion);
  if (groups.empty()) g.fail("the graph computes nothing from its inputs (every node folds away)");

  LayerBuilder builder(g, f, options.element_bytes);
  std::vector<Layer> layers;
  std::unordered_map<int, std::size_t> layer_of_node;
  std::unordered_set<std::string> used;
  for (const Group& group : groups) {
    Layer layer = builder.build(group, layer_of_node);
    layer.name = unique_name(layer_name(g, group), used);
    for (int n : group.nodes)
      layer_of_node.emplace(n, layers.size());
    layers.push_back(std::move(layer));
  }

  WorkloadInfo info;
  const std::string stem = model.stem().string();
  info.name = options.name.empty() ? stem : options.name;
  info.description = options.description;
  if (info.description.empty()) {
    info.description = stem;
    info.description += " imported from ONNX";
  }
  info.source = options.source;
  if (info.source.empty()) {
    info.source = model.filename().string();
    info.source += ", imported by memplace (fusion preset ";
    info.source += fusion_preset_name(options.fusion);
    info.source += ", element_bytes ";
    info.source += std::to_string(options.element_bytes);
    info.source += ')';
  }
  info.element_bytes = options.element_bytes;
  return Workload(std::move(info), std::move(layers), model.string());
}

std::string workload_from_model(const std::string& model, const ImportOptions& options,
                                const std::filesystem::path& folder) {
  if (std::filesystem::path(model).extension() != ".onnx") return model;
  const Workload w = import_onnx(model, options);
  const std::filesystem::path file = folder / (w.name() + ".yaml");
  w.save(file);
  return file.string();
}

}  // namespace memplace
