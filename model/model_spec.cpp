#include "model/model_spec.hpp"

#include <optional>
#include <stdexcept>

#include "base/errors.hpp"
#include "base/text.hpp"
#include "base/whole_number.hpp"

namespace memplace {

namespace {

// The word that stands for "the hardware model's own value" in options.
constexpr std::string_view kHardwareValue = "hardware";

std::int64_t parse_lookahead(const std::string& value) {
  const std::optional<std::int64_t> n = parse_count(value);
  if (!n)
    throw InputError("option lookahead: expected 'hardware' or a non-negative integer, got '" +
                     value + "'");
  return *n;
}

}  // namespace

std::string_view version_name(ModelVersion version) {
  switch (version) {
    case ModelVersion::v0:
      return "v0";
    case ModelVersion::v1:
      return "v1";
    case ModelVersion::v2:
      return "v2";
  }
  return "unknown";
}

ModelVersion parse_version(std::string_view name) {
  for (const ModelVersion version : kModelVersions)
    if (name == version_name(version)) return version;
  throw InputError("env version '" + std::string(name) +
                   "': expected v0 (pinned dynamics), v1 (streaming) or v2 (addressed)");
}

Dynamics default_dynamics(ModelVersion version) {
  for (const Dynamics d : Dynamics::all())
    if (d.model().cost_model() == static_cast<std::size_t>(version)) return d;
  throw std::logic_error("no registered dynamics brought cost model " +
                         std::string(version_name(version)));
}

Simulator ModelSpec::build() const {
  return build(load_workload(workload), load_hardware(hardware));
}

std::shared_ptr<const Simulator> ModelSpec::build_shared() const {
  return std::make_shared<const Simulator>(build());
}

Simulator ModelSpec::build(Workload loaded_workload, Hardware loaded_hardware) const {
  if (lookahead) loaded_hardware.dma.lookahead = *lookahead;
  SimulatorOptions options;
  options.memory_time = memory_time;
  options.dynamics = dynamics;
  return Simulator(std::move(loaded_workload), std::move(loaded_hardware), options);
}

std::vector<OptionSpec> ModelSpec::option_specs(ModelVersion version) {
  std::vector<OptionSpec> specs = {
      {"workload", "resnet50", {}, "a shipped workload name or a workload YAML file"},
      {"hardware",
       std::string(kDefaultHardware),
       {},
       "a shipped hardware model name or a hardware YAML file"},
      {"memory_time",
       std::string(kHardwareValue),
       {std::string(kHardwareValue), "max", "sum"},
       "how a layer's transfers to different memories combine; 'hardware' uses the model's rule"},
  };
  if (version == ModelVersion::v0) return specs;
  // The version's own dynamics first, then the others it has (from this or an earlier cost
  // model), newest first.
  const Dynamics own = default_dynamics(version);
  std::vector<std::string> choices = {std::string(own.name())};
  std::string help = std::string(own.model().summary());
  const std::vector<Dynamics> all = Dynamics::all();
  for (auto d = all.rbegin(); d != all.rend(); ++d) {
    if (*d == own || d->model().cost_model() > static_cast<std::size_t>(version)) continue;
    choices.emplace_back(d->name());
    help += "; " + std::string(d->model().summary());
  }
  specs.push_back({"dynamics", choices.front(), choices,
                   help + " (the earlier cost models' under this version's observation)"});
  specs.push_back({"lookahead",
                   std::string(kHardwareValue),
                   {},
                   "the DMA's lookahead in layers; 'hardware' uses the model's"});
  return specs;
}

OptionMap ModelSpec::to_options(ModelVersion version) const {
  require_version(version);
  OptionMap options = {{"workload", workload},
                       {"hardware", hardware},
                       {"memory_time", memory_time ? std::string(combine_name(*memory_time))
                                                   : std::string(kHardwareValue)}};
  if (version == ModelVersion::v0) return options;
  options["dynamics"] = std::string(dynamics_name(dynamics));
  options["lookahead"] = lookahead ? std::to_string(*lookahead) : std::string(kHardwareValue);
  return options;
}

ModelSpec ModelSpec::from_options(const OptionMap& resolved) {
  ModelSpec spec;
  auto value = [&](std::string_view name) -> const std::string* {
    const auto it = resolved.find(name);
    return it == resolved.end() ? nullptr : &it->second;
  };
  if (const std::string* w = value("workload")) spec.workload = *w;
  if (const std::string* h = value("hardware")) spec.hardware = *h;
  if (const std::string* rule = value("memory_time"); rule && *rule != kHardwareValue) {
    spec.memory_time = combine_from_name(*rule);
    if (!spec.memory_time)
      throw InputError("option memory_time: expected hardware, max or sum, got '" + *rule + "'");
  }
  if (const std::string* d = value("dynamics")) {
    const std::optional<Dynamics> dynamics = dynamics_from_name(*d);
    if (!dynamics)
      throw InputError("option dynamics: expected one of " + join(dynamics_names(), ", ") +
                       ", got '" + *d + "'");
    spec.dynamics = *dynamics;
  }
  if (const std::string* l = value("lookahead"); l && *l != kHardwareValue)
    spec.lookahead = parse_lookahead(*l);
  return spec;
}

void ModelSpec::require_version(ModelVersion version) const {
  const std::size_t brought = dynamics.model().cost_model();
  if (brought > static_cast<std::size_t>(version)) {
    const std::string v = "v" + std::to_string(brought);
    throw InputError("the " + std::string(dynamics.name()) + " dynamics is cost model " + v +
                     "'s (env version " + v + "), not " + std::string(version_name(version)) +
                     "'s");
  }
  if (version == ModelVersion::v0 && lookahead)
    throw InputError("lookahead is an option of env version v1, not v0");
}

}  // namespace memplace
