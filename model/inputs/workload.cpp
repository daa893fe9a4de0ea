#include "model/inputs/workload.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "base/atomic_file.hpp"
#include "base/yaml_input.hpp"
#include "model/inputs/embedded.hpp"
#include "model/inputs/limits.hpp"
#include "model/inputs/procedural.hpp"

namespace memplace {

namespace {

constexpr std::array<std::string_view, kOpKindCount> kOpNames = {
    "conv", "depthwise_conv", "matmul",    "gemm",   "pool",  "elementwise",
    "norm", "softmax",        "embedding", "concat", "other",
};

std::string layer_field(std::size_t i, std::string_view field) {
  return "layers[" + std::to_string(i) + "]." + std::string(field);
}

// The count at which one of a workload's totals (MACs, vector ops, bytes) would pass
// kMaxTotalCount (limits.hpp).
struct CountPastTotal {
  std::size_t layer;
  std::string key;                   // "weight_bytes", or "bytes" of the input edge below
  std::optional<std::size_t> input;  // the input edge, for its bytes
  std::string message;
};

std::optional<CountPastTotal> first_count_past_total(std::span<const Layer> layers) {
  std::int64_t macs = 0, vector_ops = 0, bytes = 0;
  auto past = [](std::int64_t& total, std::int64_t count) {
    if (count > kMaxTotalCount - total) return true;
    total += count;
    return false;
  };
  auto message = [](std::string_view what) {
    return "the workload's " + std::string(what) +
           " would sum past 2^62 (4.6e18) with this count; is it a typo?";
  };
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    if (past(macs, l.macs)) return CountPastTotal{i, "macs", std::nullopt, message("MACs")};
    if (past(vector_ops, l.vector_ops))
      return CountPastTotal{i, "vector_ops", std::nullopt, message("vector ops")};
    for (const auto& [key, count] :
         {std::pair<std::string_view, std::int64_t>{"weight_bytes", l.weight_bytes},
          {"weight_traffic_bytes", l.weight_traffic_bytes},
          {"output_bytes", l.output_bytes},
          {"external_input_bytes", l.external_input_bytes}}) {
      if (past(bytes, count))
        return CountPastTotal{i, std::string(key), std::nullopt, message("bytes")};
    }
    for (std::size_t k = 0; k < l.inputs.size(); ++k) {
      if (past(bytes, l.inputs[k].bytes)) return CountPastTotal{i, "bytes", k, message("bytes")};
    }
  }
  return std::nullopt;
}

std::string field_of(const CountPastTotal& past) {
  return past.input
             ? layer_field(past.layer, "inputs[" + std::to_string(*past.input) + "]." + past.key)
             : layer_field(past.layer, past.key);
}

}  // namespace

std::string_view op_name(OpKind op) {
  return kOpNames.at(static_cast<std::size_t>(op));
}

std::optional<OpKind> op_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == name) return static_cast<OpKind>(i);
  }
  return std::nullopt;
}

Workload::Workload(WorkloadInfo info, std::vector<Layer> layers, std::string_view origin)
    : info_(std::move(info)), layers_(std::move(layers)), graph_(layers_.size()) {
  auto fail = [&](const std::string& field, const std::string& message) {
    throw InputError(input_error_message(origin, 0, field, message));
  };
  if (info_.name.empty()) fail("name", "must not be empty");
  if (layers_.empty()) fail("layers", "a workload needs at least one layer");
  if (info_.element_bytes <= 0) fail("element_bytes", "must be positive");

  std::unordered_map<std::string_view, std::size_t> by_name;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const Layer& l = layers_[i];
    if (l.name.empty()) fail(layer_field(i, "name"), "must not be empty");
    if (!by_name.emplace(l.name, i).second) {
      fail(layer_field(i, "name"), "duplicate layer name '" + l.name + "' (first used by layers[" +
                                       std::to_string(by_name[l.name]) + "])");
    }
    const std::array<std::pair<std::string_view, std::int64_t>, 6> sizes = {{
        {"macs", l.macs},
        {"vector_ops", l.vector_ops},
        {"weight_bytes", l.weight_bytes},
        {"weight_traffic_bytes", l.weight_traffic_bytes},
        {"output_bytes", l.output_bytes},
        {"external_input_bytes", l.external_input_bytes},
    }};
    for (const auto& [field, value] : sizes) {
      if (value < 0) fail(layer_field(i, field), "must be non-negative");
    }
    for (std::size_t k = 0; k < l.inputs.size(); ++k) {
      const InputEdge& e = l.inputs[k];
      const std::string field = layer_field(i, "inputs[" + std::to_string(k) + "]");
      if (e.producer >= layers_.size()) fail(field, "refers to a layer that does not exist");
      if (e.producer >= i) {
        fail(field, "refers to '" + layers_[e.producer].name +
                        "', which is not earlier in the schedule (the layer order must be a "
                        "topological order of an acyclic graph)");
      }
      if (e.bytes < 0) fail(field + ".bytes", "must be non-negative");
      boost::add_edge(e.producer, i, EdgeBytes{e.bytes}, graph_);
    }
  }
  if (const auto past = first_count_past_total(layers_)) fail(field_of(*past), past->message);

  last_use_.resize(layers_.size());
  std::iota(last_use_.begin(), last_use_.end(), std::size_t{0});
  consumer_offsets_.assign(layers_.size() + 1, 0);
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    for (const InputEdge& e : layers_[i].inputs) {
      last_use_[e.producer] = std::max(last_use_[e.producer], i);
      ++consumer_offsets_[e.producer + 1];
    }
  }
  std::partial_sum(consumer_offsets_.begin(), consumer_offsets_.end(), consumer_offsets_.begin());
  consumers_.resize(consumer_offsets_.back());
  std::vector<std::size_t> fill(consumer_offsets_.begin(), consumer_offsets_.end() - 1);
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    for (const InputEdge& e : layers_[i].inputs)
      consumers_[fill[e.producer]++] = i;
  }
}

std::optional<std::size_t> Workload::find(std::string_view name) const {
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    if (layers_[i].name == name) return i;
  }
  return std::nullopt;
}

std::span<const std::size_t> Workload::consumers(std::size_t i) const {
  return std::span<const std::size_t>(consumers_)
      .subspan(consumer_offsets_[i], consumer_offsets_[i + 1] - consumer_offsets_[i]);
}

std::int64_t Workload::total_macs() const {
  std::int64_t total = 0;
  for (const Layer& l : layers_)
    total += l.macs;
  return total;
}

std::int64_t Workload::total_weight_bytes() const {
  std::int64_t total = 0;
  for (const Layer& l : layers_)
    total += l.weight_bytes;
  return total;
}

std::int64_t Workload::total_output_bytes() const {
  std::int64_t total = 0;
  for (const Layer& l : layers_)
    total += l.output_bytes;
  return total;
}

std::int64_t Workload::peak_live_activation_bytes() const {
  std::vector<std::int64_t> delta(layers_.size() + 1, 0);
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    delta[i] += layers_[i].output_bytes;
    delta[last_use_[i] + 1] -= layers_[i].output_bytes;
  }
  std::int64_t live = 0;
  std::int64_t peak = 0;
  for (std::size_t s = 0; s < layers_.size(); ++s) {
    live += delta[s];
    peak = std::max(peak, live);
  }
  return peak;
}

// ---------------------------------------------------------------------------------------------
// YAML

namespace {

// Names the cycle that an edge closes, for the error message: "a -> b -> c -> a".
std::string describe_cycle(const std::vector<std::vector<std::size_t>>& succ,
                           const std::vector<std::string>& names) {
  enum Color : std::uint8_t { white, grey, black };
  std::vector<Color> color(succ.size(), white);
  std::vector<std::size_t> parent(succ.size(), 0);
  for (std::size_t root = 0; root < succ.size(); ++root) {
    if (color[root] != white) continue;
    // Iterative DFS: (vertex, next successor index).
    std::vector<std::pair<std::size_t, std::size_t>> stack = {{root, 0}};
    color[root] = grey;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next == succ[u].size()) {
        color[u] = black;
        stack.pop_back();
        continue;
      }
      const std::size_t v = succ[u][next++];
      if (color[v] == grey) {
        std::vector<std::size_t> cycle = {v};
        for (std::size_t w = u; w != v; w = parent[w])
          cycle.push_back(w);
        std::string text;
        for (auto it = cycle.rbegin(); it != cycle.rend(); ++it)
          text += names[*it] + " -> ";
        return "cycle: " + names[v] + " -> " + text.substr(0, text.size() - 4);
      }
      if (color[v] == white) {
        color[v] = grey;
        parent[v] = u;
        stack.emplace_back(v, 0);
      }
    }
  }
  return {};
}

}  // namespace

Workload Workload::from_yaml(std::string_view text, std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  in.reject_unknown_keys(root, {"name", "description", "source", "element_bytes", "layers"}, "");

  WorkloadInfo info;
  info.name = in.string(in.require(root, "name", ""), "name");
  if (info.name.empty()) in.fail(root["name"], "name", "must not be empty");
  if (auto n = in.optional(root, "description", ""); n.IsDefined()) {
    info.description = in.string(n, "description");
  }
  if (auto n = in.optional(root, "source", ""); n.IsDefined()) info.source = in.string(n, "source");
  if (auto n = in.optional(root, "element_bytes", ""); n.IsDefined()) {
    const std::int64_t bytes = in.count(n, "element_bytes");
    if (bytes < 1 || bytes > 16) in.fail(n, "element_bytes", "must be between 1 and 16");
    info.element_bytes = static_cast<int>(bytes);
  }

  const YAML::Node layer_nodes = in.require(root, "layers", "");
  in.require_sequence(layer_nodes, "layers");
  if (layer_nodes.size() == 0)
    in.fail(layer_nodes, "layers", "a workload needs at least one layer");

  std::vector<Layer> layers(layer_nodes.size());
  std::unordered_map<std::string, std::size_t> by_name;
  // First pass: everything but the edges, so inputs can name any layer.
  for (std::size_t i = 0; i < layer_nodes.size(); ++i) {
    const YAML::Node node = layer_nodes[i];
    const std::string field = "layers[" + std::to_string(i) + "]";
    in.reject_unknown_keys(
        node,
        {"name", "op", "macs", "vector_ops", "weight_bytes", "weight_traffic_bytes", "output_bytes",
         "external_input_bytes", "inputs"},
        field);
    Layer& l = layers[i];
    const YAML::Node name = in.require(node, "name", field);
    l.name = in.string(name, field + ".name");
    if (l.name.empty()) in.fail(name, field + ".name", "must not be empty");
    if (auto [it, fresh] = by_name.emplace(l.name, i); !fresh) {
      in.fail(name, field + ".name",
              "duplicate layer name '" + l.name + "' (first used by layers[" +
                  std::to_string(it->second) + "])");
    }
    const YAML::Node op = in.require(node, "op", field);
    const std::string op_text = in.string(op, field + ".op");
    const auto kind = op_from_name(op_text);
    if (!kind) {
      std::string list;
      for (std::string_view n : kOpNames)
        list += (list.empty() ? "" : ", ") + std::string(n);
      in.fail(op, field + ".op", "unknown op '" + op_text + "' (expected one of: " + list + ")");
    }
    l.op = *kind;
    auto read = [&](const char* key, std::int64_t fallback) {
      const YAML::Node n = node[key];
      return n.IsDefined() ? in.count(n, field + "." + key) : fallback;
    };
    l.output_bytes = in.count(in.require(node, "output_bytes", field), field + ".output_bytes");
    l.macs = read("macs", 0);
    l.vector_ops = read("vector_ops", 0);
    l.weight_bytes = read("weight_bytes", 0);
    l.weight_traffic_bytes = read("weight_traffic_bytes", l.weight_bytes);
    l.external_input_bytes = read("external_input_bytes", 0);
  }

  // Second pass: edges, by producer name.
  std::vector<std::vector<std::size_t>> succ(layers.size());
  std::vector<std::string> names;
  for (const Layer& l : layers)
    names.push_back(l.name);
  bool out_of_order = false;
  YAML::Node first_out_of_order;
  std::string first_out_of_order_field;
  for (std::size_t i = 0; i < layer_nodes.size(); ++i) {
    const YAML::Node inputs = layer_nodes[i]["inputs"];
    if (!inputs.IsDefined() || inputs.IsNull()) continue;
    const std::string field = "layers[" + std::to_string(i) + "].inputs";
    in.require_sequence(inputs, field);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const YAML::Node edge = inputs[k];
      const std::string ef = field + "[" + std::to_string(k) + "]";
      in.reject_unknown_keys(edge, {"layer", "bytes"}, ef);
      const YAML::Node producer_node = in.require(edge, "layer", ef);
      const std::string producer = in.string(producer_node, ef + ".layer");
      const auto it = by_name.find(producer);
      if (it == by_name.end()) {
        in.fail(producer_node, ef + ".layer", "no layer named '" + producer + "'");
      }
      if (it->second == i) in.fail(producer_node, ef + ".layer", "a layer cannot read itself");
      const std::int64_t bytes = in.count(in.require(edge, "bytes", ef), ef + ".bytes");
      layers[i].inputs.push_back(InputEdge{it->second, bytes});
      succ[it->second].push_back(i);
      if (it->second > i && !out_of_order) {
        out_of_order = true;
        first_out_of_order = producer_node;
        first_out_of_order_field = ef + ".layer";
      }
    }
  }
  if (out_of_order) {
    const std::string cycle = describe_cycle(succ, names);
    if (!cycle.empty())
      in.fail(first_out_of_order, first_out_of_order_field, "the graph has a " + cycle);
    in.fail(first_out_of_order, first_out_of_order_field,
            "refers to a later layer; layers must be listed in schedule (topological) order");
  }
  if (const auto past = first_count_past_total(layers)) {
    const YAML::Node layer = layer_nodes[past->layer];
    const YAML::Node count =
        past->input ? layer["inputs"][*past->input]["bytes"] : layer[past->key];
    if (count.IsDefined()) in.fail(count, field_of(*past), past->message);
    // weight_traffic_bytes left out, counting weight_bytes again
    in.fail(layer["weight_bytes"], field_of(*past) + " (weight_bytes, by default)", past->message);
  }
  return Workload(std::move(info), std::move(layers), origin);
}

Workload Workload::load(const std::filesystem::path& path) {
  return from_yaml(YamlInput::read_file(path), path.string());
}

std::string Workload::to_yaml() const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << info_.name;
  if (!info_.description.empty())
    out << YAML::Key << "description" << YAML::Value << info_.description;
  if (!info_.source.empty()) out << YAML::Key << "source" << YAML::Value << info_.source;
  out << YAML::Key << "element_bytes" << YAML::Value << info_.element_bytes;
  out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  for (const Layer& l : layers_) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << l.name;
    out << YAML::Key << "op" << YAML::Value << std::string(op_name(l.op));
    out << YAML::Key << "macs" << YAML::Value << l.macs;
    out << YAML::Key << "vector_ops" << YAML::Value << l.vector_ops;
    out << YAML::Key << "weight_bytes" << YAML::Value << l.weight_bytes;
    if (l.weight_traffic_bytes != l.weight_bytes) {
      out << YAML::Key << "weight_traffic_bytes" << YAML::Value << l.weight_traffic_bytes;
    }
    out << YAML::Key << "output_bytes" << YAML::Value << l.output_bytes;
    if (l.external_input_bytes != 0) {
      out << YAML::Key << "external_input_bytes" << YAML::Value << l.external_input_bytes;
    }
    if (!l.inputs.empty()) {
      out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
      for (const InputEdge& e : l.inputs) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "layer" << YAML::Value << layers_[e.producer].name;
        out << YAML::Key << "bytes" << YAML::Value << e.bytes;
        out << YAML::EndMap;
      }
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void Workload::save(const std::filesystem::path& path) const {
  write_file_atomically(path, to_yaml());
}

namespace {
constexpr std::pair<std::string_view, int> kElementTypes[] = {
    {"int8", 1}, {"fp8", 1}, {"fp16", 2}, {"bf16", 2}, {"fp32", 4}};
}  // namespace

std::optional<int> element_type_bytes(std::string_view name) {
  for (const auto& [n, bytes] : kElementTypes)
    if (n == name) return bytes;
  return std::nullopt;
}

std::vector<std::string> element_type_names() {
  std::vector<std::string> names;
  for (const auto& [name, bytes] : kElementTypes)
    names.emplace_back(name);
  return names;
}

Workload load_workload(std::string_view name_or_path) {
  if (std::optional<Workload> generated = procedural_workload_named(name_or_path))
    return std::move(*generated);
  // A suite's workloads load by name too (workloads/suite/workloads/).
  if (const EmbeddedFile* suite = find_embedded(embedded_suite_workloads(), name_or_path))
    return Workload::from_yaml(suite->text,
                               "workloads/suite/workloads/" + std::string(name_or_path) + ".yaml");
  // And a calibration set's (workloads/calibration/workloads/, docs/calibration.md).
  if (const EmbeddedFile* point = find_embedded(embedded_calibration_workloads(), name_or_path))
    return Workload::from_yaml(
        point->text, "workloads/calibration/workloads/" + std::string(name_or_path) + ".yaml");
  const ShippedOrFile in = locate_shipped_or_file(embedded_workloads(), "workloads", "workload",
                                                  "workload", name_or_path);
  return in.shipped ? Workload::from_yaml(in.shipped->text, in.origin) : Workload::load(in.path);
}

std::vector<std::string> embedded_workload_names() {
  return embedded_names(embedded_workloads());
}

std::vector<std::string> paper_workload_names() {
  return {"resnet50", "resnet101", "bert-base"};
}

}  // namespace memplace
