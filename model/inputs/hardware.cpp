#include "model/inputs/hardware.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_set>

#include "base/yaml_input.hpp"
#include "model/inputs/embedded.hpp"
#include "model/inputs/limits.hpp"

namespace memplace {

std::string_view combine_name(MemoryTimeCombine c) {
  return c == MemoryTimeCombine::max ? "max" : "sum";
}

std::optional<MemoryTimeCombine> combine_from_name(std::string_view name) {
  if (name == "max") return MemoryTimeCombine::max;
  if (name == "sum") return MemoryTimeCombine::sum;
  return std::nullopt;
}

std::optional<std::size_t> Hardware::find_memory(std::string_view memory_name) const {
  for (std::size_t m = 0; m < memories.size(); ++m) {
    if (memories[m].name == memory_name) return m;
  }
  return std::nullopt;
}

std::vector<std::size_t> Hardware::staging_memories() const {
  std::vector<std::size_t> out;
  for (std::size_t m = 0; m + 1 < memories.size(); ++m) {
    if (!dma.staging || std::ranges::count(*dma.staging, memories[m].name) > 0) out.push_back(m);
  }
  return out;
}

void Hardware::validate(std::string_view origin) const {
  auto fail = [&](const std::string& field, const std::string& message) {
    throw InputError(input_error_message(origin, 0, field, message));
  };
  auto finite_positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (name.empty()) fail("name", "must not be empty");
  if (memories.empty() || memories.size() > kMaxMemories) {
    fail("memories", "need between 1 and " + std::to_string(kMaxMemories) + " memories");
  }
  std::unordered_set<std::string> names;
  std::int64_t total_capacity = 0;
  for (std::size_t m = 0; m < memories.size(); ++m) {
    const std::string field = "memories[" + std::to_string(m) + "]";
    const Memory& mem = memories[m];
    if (mem.name.empty()) fail(field + ".name", "must not be empty");
    if (!names.insert(mem.name).second)
      fail(field + ".name", "duplicate memory '" + mem.name + "'");
    if (mem.capacity_bytes <= 0) fail(field + ".capacity_bytes", "must be positive");
    if (mem.capacity_bytes > kMaxTotalCount - total_capacity) {
      fail(field + ".capacity_bytes",
           "the memories' capacities would sum past 2^62 (4.6e18) with this one; is it a typo?");
    }
    total_capacity += mem.capacity_bytes;
    if (mem.alignment_bytes <= 0 || mem.alignment_bytes > mem.capacity_bytes)
      fail(field + ".alignment_bytes", "must be between 1 and the capacity");
    if (!finite_positive(mem.bandwidth_bytes_per_s)) {
      fail(field + ".bandwidth_bytes_per_s", "must be a finite positive number");
    }
    if (m > 0 && mem.bandwidth_bytes_per_s > memories[m - 1].bandwidth_bytes_per_s) {
      fail(field + ".bandwidth_bytes_per_s", "memories must be listed fastest first ('" + mem.name +
                                                 "' is faster than '" + memories[m - 1].name +
                                                 "')");
    }
  }
  if (!finite_positive(peak_macs_per_s)) fail("compute.peak_macs_per_s", "must be positive");
  if (!(mac_utilisation > 0 && mac_utilisation <= 1)) {
    fail("compute.mac_utilisation", "must be in (0, 1]");
  }
  if (!finite_positive(vector_ops_per_s)) fail("compute.vector_ops_per_s", "must be positive");
  if (!std::isfinite(layer_overhead_s) || layer_overhead_s < 0) {
    fail("layer_overhead_s", "must be a finite non-negative number");
  }
  if (dma.lookahead < 0) fail("dma.lookahead", "must be a non-negative number of layers");
  if (dma.staging) {
    std::unordered_set<std::string> staged;
    for (std::size_t i = 0; i < dma.staging->size(); ++i) {
      const std::string& memory = (*dma.staging)[i];
      const std::string field = "dma.staging[" + std::to_string(i) + "]";
      const auto m = find_memory(memory);
      if (!m) fail(field, "unknown memory '" + memory + "'");
      if (*m == slowest()) {
        fail(field, "'" + memory + "' is the slowest memory: staging must be faster than a home");
      }
      if (!staged.insert(memory).second) fail(field, "'" + memory + "' listed twice");
    }
  }
}

Hardware Hardware::from_yaml(std::string_view text, std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  in.reject_unknown_keys(
      root,
      {"name", "description", "memories", "compute", "layer_overhead_s", "memory_time", "dma"}, "");
  Hardware hw;
  hw.name = in.string(in.require(root, "name", ""), "name");
  if (auto n = in.optional(root, "description", ""); n.IsDefined()) {
    hw.description = in.string(n, "description");
  }
  const YAML::Node mems = in.require(root, "memories", "");
  in.require_sequence(mems, "memories");
  if (mems.size() == 0 || mems.size() > kMaxMemories) {
    in.fail(mems, "memories", "need between 1 and " + std::to_string(kMaxMemories) + " memories");
  }
  for (std::size_t m = 0; m < mems.size(); ++m) {
    const std::string field = "memories[" + std::to_string(m) + "]";
    const YAML::Node node = mems[m];
    in.reject_unknown_keys(
        node, {"name", "capacity_bytes", "bandwidth_bytes_per_s", "alignment_bytes"}, field);
    Memory mem;
    mem.name = in.string(in.require(node, "name", field), field + ".name");
    const YAML::Node cap = in.require(node, "capacity_bytes", field);
    mem.capacity_bytes = in.count(cap, field + ".capacity_bytes");
    if (mem.capacity_bytes == 0) in.fail(cap, field + ".capacity_bytes", "must be positive");
    mem.bandwidth_bytes_per_s = in.positive(in.require(node, "bandwidth_bytes_per_s", field),
                                            field + ".bandwidth_bytes_per_s");
    if (auto a = in.optional(node, "alignment_bytes", field); a.IsDefined()) {
      mem.alignment_bytes = in.count(a, field + ".alignment_bytes");
      if (mem.alignment_bytes == 0) in.fail(a, field + ".alignment_bytes", "must be positive");
    }
    hw.memories.push_back(mem);
  }
  const YAML::Node compute = in.require(root, "compute", "");
  in.reject_unknown_keys(compute, {"peak_macs_per_s", "mac_utilisation", "vector_ops_per_s"},
                         "compute");
  hw.peak_macs_per_s =
      in.positive(in.require(compute, "peak_macs_per_s", "compute"), "compute.peak_macs_per_s");
  if (auto n = in.optional(compute, "mac_utilisation", "compute"); n.IsDefined()) {
    hw.mac_utilisation = in.positive(n, "compute.mac_utilisation");
    if (hw.mac_utilisation > 1) in.fail(n, "compute.mac_utilisation", "must be in (0, 1]");
  }
  hw.vector_ops_per_s =
      in.positive(in.require(compute, "vector_ops_per_s", "compute"), "compute.vector_ops_per_s");
  if (auto n = in.optional(root, "layer_overhead_s", ""); n.IsDefined()) {
    hw.layer_overhead_s = in.non_negative(n, "layer_overhead_s");
  }
  if (auto n = in.optional(root, "memory_time", ""); n.IsDefined()) {
    const std::string text_value = in.string(n, "memory_time");
    const auto c = combine_from_name(text_value);
    if (!c) in.fail(n, "memory_time", "expected 'max' or 'sum', got '" + text_value + "'");
    hw.memory_time = *c;
  }
  YAML::Node staging_node;
  if (auto dma = in.optional(root, "dma", ""); dma.IsDefined()) {
    in.reject_unknown_keys(dma, {"lookahead", "staging", "during_overhead"}, "dma");
    if (auto n = in.optional(dma, "lookahead", "dma"); n.IsDefined()) {
      hw.dma.lookahead = in.count(n, "dma.lookahead");
    }
    if (auto n = in.optional(dma, "staging", "dma"); n.IsDefined()) {
      in.require_sequence(n, "dma.staging");
      hw.dma.staging.emplace();
      for (std::size_t i = 0; i < n.size(); ++i)
        hw.dma.staging->push_back(in.string(n[i], "dma.staging[" + std::to_string(i) + "]"));
      staging_node = n;
    }
    if (auto n = in.optional(dma, "during_overhead", "dma"); n.IsDefined()) {
      hw.dma.during_overhead = in.boolean(n, "dma.during_overhead");
    }
  }
  // Cross-field rules (names unique, fastest first, staging memories known) with the line of
  // the list they concern.
  try {
    hw.validate(origin);
  } catch (const InputError& e) {
    const std::string message = e.what();
    const std::string prefix = std::string(origin) + ": ";
    const bool about_staging = message.find("dma.staging") != std::string::npos;
    in.fail(about_staging ? staging_node : mems, "",
            message.substr(message.rfind(prefix, 0) == 0 ? prefix.size() : 0));
  }
  return hw;
}

Hardware Hardware::load(const std::filesystem::path& path) {
  return from_yaml(YamlInput::read_file(path), path.string());
}

std::string Hardware::to_yaml() const {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << name;
  if (!description.empty()) out << YAML::Key << "description" << YAML::Value << description;
  out << YAML::Key << "memories" << YAML::Value << YAML::BeginSeq;
  for (const Memory& m : memories) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << m.name;
    out << YAML::Key << "capacity_bytes" << YAML::Value << m.capacity_bytes;
    out << YAML::Key << "bandwidth_bytes_per_s" << YAML::Value << m.bandwidth_bytes_per_s;
    if (m.alignment_bytes != 1)
      out << YAML::Key << "alignment_bytes" << YAML::Value << m.alignment_bytes;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "compute" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "peak_macs_per_s" << YAML::Value << peak_macs_per_s;
  out << YAML::Key << "mac_utilisation" << YAML::Value << mac_utilisation;
  out << YAML::Key << "vector_ops_per_s" << YAML::Value << vector_ops_per_s;
  out << YAML::EndMap;
  out << YAML::Key << "layer_overhead_s" << YAML::Value << layer_overhead_s;
  out << YAML::Key << "memory_time" << YAML::Value << std::string(combine_name(memory_time));
  out << YAML::Key << "dma" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "lookahead" << YAML::Value << dma.lookahead;
  if (dma.staging) {
    out << YAML::Key << "staging" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& m : *dma.staging)
      out << m;
    out << YAML::EndSeq;
  }
  out << YAML::Key << "during_overhead" << YAML::Value << dma.during_overhead;
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

namespace {
// A shipped chip is parsed once per process and copied after that: a table or a resumed run loads
// the same chip again and again, and in the fuzzing build the parse was a third of each resume.
const Hardware& parsed_once(const EmbeddedFile& shipped, const std::string& origin) {
  static std::mutex mutex;
  static std::map<const EmbeddedFile*, Hardware> parsed;  // never erased: references stay valid
  const std::lock_guard lock(mutex);
  auto it = parsed.find(&shipped);
  if (it == parsed.end())
    it = parsed.emplace(&shipped, Hardware::from_yaml(shipped.text, origin)).first;
  return it->second;
}
}  // namespace

Hardware load_hardware(std::string_view name_or_path) {
  // A calibrated revision of a chip ("edge-tpu.cal1", docs/calibration.md), unlisted.
  if (const EmbeddedFile* fitted = find_embedded(embedded_calibration_hardware(), name_or_path))
    return parsed_once(*fitted,
                       "workloads/calibration/hardware/" + std::string(name_or_path) + ".yaml");
  const ShippedOrFile in = locate_shipped_or_file(embedded_hardware(), "workloads/hardware",
                                                  "hardware", "hardware model", name_or_path);
  return in.shipped ? parsed_once(*in.shipped, in.origin) : Hardware::load(in.path);
}

std::vector<std::string> embedded_hardware_names() {
  std::vector<std::string> names = embedded_names(embedded_hardware());
  std::stable_partition(names.begin(), names.end(),
                        [](const std::string& name) { return name == kDefaultHardware; });
  return names;
}

}  // namespace memplace
