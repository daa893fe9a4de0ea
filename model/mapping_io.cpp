#include "model/mapping_io.hpp"

#include <yaml-cpp/yaml.h>

#include "base/atomic_file.hpp"
#include "base/text.hpp"
#include "base/yaml_input.hpp"

namespace memplace {

namespace {

MemoryTimeCombine memory_time(const YamlInput& in, const YAML::Node& node,
                              const std::string& field) {
  const auto rule = combine_from_name(in.string(node, field));
  if (!rule) in.fail(node, field, "expected max or sum, got '" + node.Scalar() + "'");
  return *rule;
}

MappingHeader read_header(const YamlInput& in) {
  const YAML::Node& root = in.root();
  in.reject_unknown_keys(root, {"workload", "hardware", "result", "optimum", "layers"}, "");
  MappingHeader header;
  header.model.workload = in.string(in.require(root, "workload", ""), "workload");
  const YAML::Node hardware = in.require(root, "hardware", "");
  header.model.hardware = in.string(hardware, "hardware");
  header.hardware_line = hardware.Mark().is_null() ? 0 : hardware.Mark().line + 1;
  if (const YAML::Node result = in.optional(root, "result", ""); result.IsDefined()) {
    if (const YAML::Node rule = in.optional(result, "memory_time", "result"); rule.IsDefined())
      header.model.memory_time = memory_time(in, rule, "result.memory_time");
    if (const YAML::Node d = in.optional(result, "dynamics", "result"); d.IsDefined()) {
      const auto dynamics = dynamics_from_name(in.string(d, "result.dynamics"));
      if (!dynamics)
        in.fail(d, "result.dynamics",
                "expected one of " + join(dynamics_names(), ", ") + ", got '" + d.Scalar() + "'");
      header.model.dynamics = *dynamics;
    }
    if (const YAML::Node l = in.optional(result, "lookahead", "result"); l.IsDefined())
      header.model.lookahead = in.count(l, "result.lookahead");
  }
  return header;
}

}  // namespace

bool MappingHeader::scored_like(const Simulator& sim) const {
  if (model.memory_time.value_or(sim.hardware().memory_time) != sim.memory_time()) return false;
  if (model.dynamics != sim.dynamics()) return false;
  return !has_dma(model.dynamics) || model.lookahead == sim.hardware().dma.lookahead;
}

MappingHeader read_mapping_header(std::string_view text, std::string_view origin) {
  return read_header(YamlInput(text, std::string(origin)));
}

MappingFile parse_mapping(std::string_view text, std::string_view origin, const Simulator& sim) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  MappingFile file;
  file.header = read_header(in);
  const Workload& workload = sim.workload();
  const Hardware& hw = sim.hardware();
  if (file.header.model.workload != workload.name()) {
    in.fail(root["workload"], "workload",
            "this mapping is for workload '" + file.header.model.workload + "', not '" +
                workload.name() + "'");
  }
  if (auto result = in.optional(root, "result", ""); result.IsDefined()) {
    in.reject_unknown_keys(result, {"latency_fs", "valid", "memory_time", "dynamics", "lookahead"},
                           "result");
    RecordedResult recorded;
    recorded.latency_fs = in.count(in.require(result, "latency_fs", "result"), "result.latency_fs");
    const YAML::Node valid = in.require(result, "valid", "result");
    const std::string v = in.string(valid, "result.valid");
    if (v != "true" && v != "false") in.fail(valid, "result.valid", "expected true or false");
    recorded.valid = v == "true";
    file.recorded = recorded;
  }

  const YAML::Node layers = in.require(root, "layers", "");
  in.require_sequence(layers, "layers");
  if (layers.size() != workload.size()) {
    in.fail(layers, "layers",
            "lists " + std::to_string(layers.size()) + " layers; workload '" + workload.name() +
                "' has " + std::to_string(workload.size()) + " layers");
  }
  auto memory = [&](const YAML::Node& node, const std::string& field) {
    const std::string name = in.string(node, field);
    const auto m = hw.find_memory(name);
    if (!m) {
      std::string list;
      for (const Memory& mem : hw.memories)
        list += (list.empty() ? "" : ", ") + mem.name;
      in.fail(node, field,
              "unknown memory '" + name + "' (hardware '" + hw.name + "' has " + list + ")");
    }
    return static_cast<MemoryIndex>(*m);
  };
  file.mapping.resize(sim.num_tensors());
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const std::string field = "layers[" + std::to_string(l) + "]";
    const YAML::Node entry = layers[l];
    in.reject_unknown_keys(entry, {"layer", "weight", "activation"}, field);
    const YAML::Node name = in.require(entry, "layer", field);
    if (in.string(name, field + ".layer") != workload.layer(l).name) {
      in.fail(name, field + ".layer",
              "expected layer '" + workload.layer(l).name +
                  "' (layers must be listed in the "
                  "workload's schedule order), got '" +
                  name.Scalar() + "'");
    }
    file.mapping[tensor_id(l, TensorKind::weight)] =
        memory(in.require(entry, "weight", field), field + ".weight");
    file.mapping[tensor_id(l, TensorKind::activation)] =
        memory(in.require(entry, "activation", field), field + ".activation");
  }
  return file;
}

MappingFile load_mapping(const std::filesystem::path& path, const Simulator& sim) {
  return parse_mapping(YamlInput::read_file(path), path.string(), sim);
}

std::string mapping_to_yaml(const Simulator& sim, std::span<const MemoryIndex> mapping,
                            const std::optional<RecordedResult>& recorded,
                            std::string_view sections) {
  sim.check_mapping(mapping);
  const Hardware& hw = sim.hardware();
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "workload" << YAML::Value << sim.workload().name();
  out << YAML::Key << "hardware" << YAML::Value << hw.name;
  if (recorded) {
    out << YAML::Key << "result" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "latency_fs" << YAML::Value << recorded->latency_fs;
    out << YAML::Key << "valid" << YAML::Value << recorded->valid;
    out << YAML::Key << "memory_time" << YAML::Value
        << std::string(combine_name(sim.memory_time()));
    // Pinned, the default, goes unsaid (the files of before the other dynamics read the same).
    if (sim.dynamics() != Dynamics::pinned)
      out << YAML::Key << "dynamics" << YAML::Value << std::string(sim.dynamics().name());
    if (has_dma(sim.dynamics()))
      out << YAML::Key << "lookahead" << YAML::Value << sim.hardware().dma.lookahead;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  std::string text = std::string(out.c_str()) + "\n";
  text += sections;
  YAML::Emitter layers;
  layers << YAML::BeginMap << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  for (std::size_t l = 0; l < sim.num_layers(); ++l) {
    layers << YAML::Flow << YAML::BeginMap;
    layers << YAML::Key << "layer" << YAML::Value << sim.workload().layer(l).name;
    layers << YAML::Key << "weight" << YAML::Value
           << hw.memories[mapping[tensor_id(l, TensorKind::weight)]].name;
    layers << YAML::Key << "activation" << YAML::Value
           << hw.memories[mapping[tensor_id(l, TensorKind::activation)]].name;
    layers << YAML::EndMap;
  }
  layers << YAML::EndSeq << YAML::EndMap;
  return text + layers.c_str() + "\n";
}

void save_mapping(const std::filesystem::path& path, const Simulator& sim,
                  std::span<const MemoryIndex> mapping,
                  const std::optional<RecordedResult>& recorded) {
  write_file_atomically(path, mapping_to_yaml(sim, mapping, recorded));
}

}  // namespace memplace
