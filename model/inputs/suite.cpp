#include "model/inputs/suite.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "base/yaml_input.hpp"
#include "model/inputs/embedded.hpp"
#include "model/inputs/workload.hpp"

namespace memplace {

namespace {

template <typename T>
const T& find_named(const std::vector<T>& items, std::string_view name, std::string_view kind) {
  for (const T& item : items)
    if (item.name == name) return item;
  throw std::out_of_range("no suite " + std::string(kind) + " '" + std::string(name) + "'");
}

// Every entry of `items` has a name seen once; fails on the node of the second.
template <typename T>
void require_unique(const YamlInput& in, const YAML::Node& list, const std::vector<T>& items,
                    const std::string& field) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!seen.insert(items[i].name).second)
      in.fail(list[i], field + "[" + std::to_string(i) + "].name",
              "'" + items[i].name + "' is listed twice");
}

Split parse_split(const YamlInput& in, const YAML::Node& node, const std::string& field) {
  const std::string text = in.string(node, field);
  if (const std::optional<Split> split = split_from_name(text)) return *split;
  in.fail(node, field, "expected dev or test, got '" + text + "'");
}

std::vector<SuiteFamily> parse_families(const YamlInput& in, const YAML::Node& list) {
  in.require_sequence(list, "families");
  std::vector<SuiteFamily> families;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = "families[" + std::to_string(i) + "]";
    const YAML::Node node = list[i];
    in.reject_unknown_keys(node, {"name", "split", "about"}, field);
    SuiteFamily f;
    f.name = in.string(in.require(node, "name", field), field + ".name");
    f.split = parse_split(in, in.require(node, "split", field), field + ".split");
    f.about = in.string(in.require(node, "about", field), field + ".about");
    families.push_back(std::move(f));
  }
  require_unique(in, list, families, "families");
  return families;
}

std::vector<SuiteModel> parse_models(const YamlInput& in, const YAML::Node& list,
                                     const std::vector<SuiteFamily>& families) {
  in.require_sequence(list, "models");
  std::vector<SuiteModel> models;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = "models[" + std::to_string(i) + "]";
    const YAML::Node node = list[i];
    in.reject_unknown_keys(node, {"name", "family", "config"}, field);
    SuiteModel m;
    m.name = in.string(in.require(node, "name", field), field + ".name");
    const YAML::Node family = in.require(node, "family", field);
    m.family = in.string(family, field + ".family");
    if (std::none_of(families.begin(), families.end(),
                     [&](const SuiteFamily& f) { return f.name == m.family; }))
      in.fail(family, field + ".family", "'" + m.family + "' is not among the families");
    m.config = in.string(in.require(node, "config", field), field + ".config");
    models.push_back(std::move(m));
  }
  require_unique(in, list, models, "models");
  return models;
}

void parse_dims(const YamlInput& in, const YAML::Node& map, const std::string& field,
                SuiteWorkload& w) {
  in.require_map(map, field);
  for (const auto& entry : map) {
    const std::string name = in.key(entry.first, field);
    if (std::none_of(std::begin(kSuiteDims), std::end(kSuiteDims),
                     [&](const auto& d) { return d.first == name; }))
      in.fail(entry.first, field, "unknown dim '" + name + "' (batch, sequence or kv_length)");
    const std::int64_t value = in.count(entry.second, field + "." + name);
    if (value < 1) in.fail(entry.second, field + "." + name, "must be at least 1");
  }
  if (!map["batch"]) in.fail(map, field, "must give the batch");
  for (const auto& [name, letter] : kSuiteDims)
    if (const YAML::Node value = map[std::string(name)])
      w.dims.emplace_back(name, in.count(value, field + "." + std::string(name)));
}

SuiteWorkload parse_workload(const YamlInput& in, const YAML::Node& node, const std::string& field,
                             const std::vector<SuiteModel>& models) {
  in.reject_unknown_keys(
      node, {"name", "model", "phase", "fixture", "dims", "static_inputs", "element_type"}, field);
  SuiteWorkload w;
  const YAML::Node name = in.require(node, "name", field);
  w.name = in.string(name, field + ".name");
  const YAML::Node model = in.require(node, "model", field);
  w.model = in.string(model, field + ".model");
  if (std::none_of(models.begin(), models.end(),
                   [&](const SuiteModel& m) { return m.name == w.model; }))
    in.fail(model, field + ".model", "'" + w.model + "' is not among the models");
  if (const YAML::Node phase = in.optional(node, "phase", field))
    w.phase = in.string(phase, field + ".phase");
  w.fixture = w.phase.empty() ? w.model : w.model + "-" + w.phase;
  if (const YAML::Node fixture = in.optional(node, "fixture", field)) {
    w.fixture = in.string(fixture, field + ".fixture");
    if (!w.fixture.starts_with(w.model))
      in.fail(fixture, field + ".fixture", "'" + w.fixture + "' is not a fixture of " + w.model);
  }
  parse_dims(in, in.require(node, "dims", field), field + ".dims", w);
  if (const YAML::Node list = in.optional(node, "static_inputs", field)) {
    in.require_sequence(list, field + ".static_inputs");
    for (std::size_t i = 0; i < list.size(); ++i)
      w.static_inputs.push_back(
          in.string(list[i], field + ".static_inputs[" + std::to_string(i) + "]"));
  }
  if (const YAML::Node type = in.optional(node, "element_type", field)) {
    w.element_type = in.string(type, field + ".element_type");
    if (!element_type_bytes(w.element_type)) {
      std::string known;
      for (const std::string& t : element_type_names())
        known += (known.empty() ? "" : ", ") + t;
      in.fail(type, field + ".element_type", "unknown '" + w.element_type + "' (" + known + ")");
    }
  }
  if (const std::string expected = conventional_name(w); w.name != expected)
    in.fail(name, field + ".name",
            "'" + w.name + "' should be '" + expected + "' (the naming convention: docs/suite.md)");
  return w;
}

std::vector<SuiteInstance> parse_instances(const YamlInput& in, const YAML::Node& list,
                                           const std::vector<SuiteWorkload>& workloads) {
  in.require_sequence(list, "instances");
  std::vector<SuiteInstance> instances;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = "instances[" + std::to_string(i) + "]";
    const YAML::Node node = list[i];
    in.reject_unknown_keys(node, {"workload", "hardware"}, field);
    SuiteInstance s;
    const YAML::Node workload = in.require(node, "workload", field);
    s.workload = in.string(workload, field + ".workload");
    if (std::none_of(workloads.begin(), workloads.end(),
                     [&](const SuiteWorkload& w) { return w.name == s.workload; }))
      in.fail(workload, field + ".workload", "'" + s.workload + "' is not among the workloads");
    s.hardware = in.string(in.require(node, "hardware", field), field + ".hardware");
    if (!seen.insert(s.id()).second) in.fail(node, field, s.id() + " is listed twice");
    instances.push_back(std::move(s));
  }
  return instances;
}

}  // namespace

std::optional<Split> split_from_name(std::string_view name) {
  if (name == "dev") return Split::dev;
  if (name == "test") return Split::test;
  return std::nullopt;
}

std::string_view split_name(Split split) {
  return split == Split::dev ? "dev" : "test";
}

std::string conventional_name(const SuiteWorkload& w) {
  std::string name = w.phase.empty() ? w.model : w.model + "-" + w.phase;
  for (const auto& [dim, letter] : kSuiteDims)
    for (const auto& [given, value] : w.dims)
      if (given == dim) name += "-" + std::string(letter) + std::to_string(value);
  if (w.element_type != "int8") name += "-" + w.element_type;
  return name;
}

const SuiteWorkload& Suite::workload(std::string_view name) const {
  return find_named(workloads, name, "workload");
}

const SuiteModel& Suite::model(std::string_view name) const {
  return find_named(models, name, "model");
}

const SuiteFamily& Suite::family(std::string_view name) const {
  return find_named(families, name, "family");
}

Split Suite::split(const SuiteInstance& instance) const {
  return family(model(workload(instance.workload).model).family).split;
}

std::string Suite::shape(const SuiteWorkload& w) {
  std::string text = w.phase.empty() ? "" : w.phase + ", ";
  for (const auto& [dim, value] : w.dims)
    text +=
        (dim == "kv_length" ? std::string("KV cache") : dim) + " " + std::to_string(value) + ", ";
  return text + w.element_type;
}

std::string Suite::description(const SuiteWorkload& w) const {
  return model(w.model).config + "; " + shape(w);
}

std::string Suite::source(const SuiteWorkload& w) const {
  std::string text = "memplace import workloads/onnx/" + w.fixture + ".onnx";
  for (const auto& [dim, value] : w.dims)
    text += " --dim " + dim + "=" + std::to_string(value);
  for (const std::string& input : w.static_inputs)
    text += " --static-input '" + input + "'";
  text += " --element-type " + w.element_type + " (suite " + name + ")";
  return text;
}

Suite parse_suite(std::string_view text, std::string origin) {
  const YamlInput in(text, origin);
  const YAML::Node& root = in.root();
  in.require_map(root, "document");
  in.reject_unknown_keys(
      root, {"suite", "cost_model", "families", "models", "workloads", "instances"}, "");
  Suite suite;
  suite.origin = std::move(origin);
  suite.name = in.string(in.require(root, "suite", ""), "suite");
  suite.cost_model = in.string(in.require(root, "cost_model", ""), "cost_model");
  suite.families = parse_families(in, in.require(root, "families", ""));
  suite.models = parse_models(in, in.require(root, "models", ""), suite.families);
  const YAML::Node workloads = in.require(root, "workloads", "");
  in.require_sequence(workloads, "workloads");
  for (std::size_t i = 0; i < workloads.size(); ++i)
    suite.workloads.push_back(
        parse_workload(in, workloads[i], "workloads[" + std::to_string(i) + "]", suite.models));
  require_unique(in, workloads, suite.workloads, "workloads");
  suite.instances = parse_instances(in, in.require(root, "instances", ""), suite.workloads);
  return suite;
}

Suite load_suite(std::string_view name_or_path) {
  const ShippedOrFile in =
      locate_shipped_or_file(embedded_suites(), "workloads/suite", "suite", "suite", name_or_path);
  return in.shipped ? parse_suite(in.shipped->text, in.origin)
                    : parse_suite(YamlInput::read_file(in.path), in.path.string());
}

std::vector<std::string> embedded_suite_names() {
  return embedded_names(embedded_suites());
}

}  // namespace memplace
