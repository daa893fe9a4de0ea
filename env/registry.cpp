#include "env/registry.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "base/errors.hpp"
#include "model/inputs/embedded.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"
#include "model/inputs/workload.hpp"

namespace memplace {

namespace {

constexpr std::string_view kPrefix = "memplace/";
constexpr std::string_view kOn = "-on-";

struct ParsedId {
  const EnvFamily* family;
  ModelVersion cost_model;
  std::string workload;  // empty: generic
  std::string hardware;  // empty: not fixed by the id
};

std::string cost_model_tag(ModelVersion v) {
  return "cm" + std::string(version_name(v)).substr(1);
}

std::string generic_id(const EnvFamily& f, ModelVersion cost_model) {
  return std::string(kPrefix) + f.kind + "-" + cost_model_tag(cost_model) + "-v" +
         std::to_string(f.revision);
}

std::string instance_id(const EnvFamily& f, ModelVersion cost_model, std::string_view workload,
                        std::string_view hardware) {
  return std::string(kPrefix) + f.kind + "-" + std::string(workload) + std::string(kOn) +
         std::string(hardware) + "-" + cost_model_tag(cost_model) + "-v" +
         std::to_string(f.revision);
}

// The path spelling, whose -v<N> names the cost model; the default hardware keeps the short form.
std::string path_id(const EnvFamily& f, ModelVersion cost_model, std::string_view workload,
                    std::string_view hardware) {
  std::string id = std::string(kPrefix) + f.kind;
  if (!workload.empty()) id += "/" + std::string(workload);
  if (!workload.empty() && hardware != kDefaultHardware) id += "@" + std::string(hardware);
  return id + "-" + std::string(version_name(cost_model));
}

bool has_cost_model(const EnvFamily& f, ModelVersion v) {
  return std::ranges::find(f.versions, v) != f.versions.end();
}

// "<n>" at the end of `text` after `tag` ("-cm1" -> 1); the text before it in `rest`.
std::optional<int> trailing_number(std::string_view& text, std::string_view tag) {
  const std::size_t at = text.rfind(tag);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view digits = text.substr(at + tag.size());
  int n = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  text = text.substr(0, at);
  return n;
}

// memplace/<kind>[-<workload>-on-<hardware>]-cm<N>-v<R>. An id of this form whose revision or
// cost model the family lacks is an InputError that says which it has.
std::optional<ParsedId> parse_grammar_id(std::string_view id) {
  std::string_view body = id.substr(kPrefix.size());
  const std::optional<int> revision = trailing_number(body, "-v");
  const std::optional<int> cost_model = trailing_number(body, "-cm");
  if (!revision || !cost_model) return std::nullopt;
  for (const EnvFamily& f : env_families()) {
    if (!body.starts_with(f.kind)) continue;
    const std::string_view rest = body.substr(f.kind.size());
    if (!rest.empty() && !rest.starts_with("-")) continue;
    const bool known = *cost_model >= 0 && *cost_model < static_cast<int>(kModelVersions.size());
    const ModelVersion version = known ? kModelVersions[*cost_model] : ModelVersion::v0;
    if (!known || !has_cost_model(f, version)) {
      std::string have;
      for (const ModelVersion v : f.versions)
        have += (have.empty() ? "" : ", ") + cost_model_tag(v);
      throw InputError("unknown environment '" + std::string(id) + "': " + f.kind +
                       " has no cost model cm" + std::to_string(*cost_model) + " (it has " + have +
                       "; docs/envs/README.md, \"Ids\")");
    }
    if (*revision != f.revision)
      throw InputError("unknown environment '" + std::string(id) + "': " + f.kind +
                       " is at revision v" + std::to_string(f.revision) + ", not v" +
                       std::to_string(*revision) + " (" + generic_id(f, version) + ")");
    if (rest.empty()) return ParsedId{&f, version, "", ""};
    const std::string_view instance = rest.substr(1);
    const std::size_t on = instance.rfind(kOn);
    if (on == std::string_view::npos || on == 0 || on + kOn.size() == instance.size())
      throw InputError("unknown environment '" + std::string(id) +
                       "': an id names its chip, memplace/" + f.kind + "-<workload>-on-<chip>-" +
                       cost_model_tag(version) + "-v" + std::to_string(f.revision) +
                       " (docs/envs/README.md, \"Ids\")");
    return ParsedId{&f, version, std::string(instance.substr(0, on)),
                    std::string(instance.substr(on + kOn.size()))};
  }
  return std::nullopt;
}

// memplace/<kind>[/<workload>[@<hardware>]]-v<N>: the ids of before the grammar, N the cost model.
std::optional<ParsedId> parse_path_id(std::string_view id) {
  for (const EnvFamily& f : env_families()) {
    for (const ModelVersion version : f.versions) {
      const std::string suffix = "-" + std::string(version_name(version));
      if (!id.ends_with(suffix)) continue;
      const std::string_view body =
          id.substr(kPrefix.size(), id.size() - kPrefix.size() - suffix.size());
      if (body == f.kind) return ParsedId{&f, version, "", ""};
      if (!body.starts_with(f.kind) || body.size() <= f.kind.size() + 1 ||
          body[f.kind.size()] != '/')
        continue;
      const std::string_view fixed = body.substr(f.kind.size() + 1);
      const std::size_t at = fixed.find('@');
      if (at == std::string_view::npos) return ParsedId{&f, version, std::string(fixed), ""};
      return ParsedId{&f, version, std::string(fixed.substr(0, at)),
                      std::string(fixed.substr(at + 1))};
    }
  }
  return std::nullopt;
}

std::optional<ParsedId> parse_id(std::string_view id) {
  if (!id.starts_with(kPrefix)) return std::nullopt;
  if (auto parsed = parse_grammar_id(id)) return parsed;
  return parse_path_id(id);
}

// Every (family, cost model) pair, cost model by cost model: the order of `memplace list`.
template <class Visit>
void for_each_family_version(Visit visit) {
  for (const ModelVersion v : kModelVersions)
    for (const EnvFamily& f : env_families())
      if (has_cost_model(f, v)) visit(f, v);
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "<a|b>" of the distinct values, in order ("a" alone).
std::string alternatives(const std::vector<std::string>& values) {
  std::vector<std::string> seen;
  for (const std::string& v : values)
    if (std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(v);
  std::string out;
  for (const std::string& v : seen)
    out += (out.empty() ? "" : "|") + v;
  return seen.size() > 1 ? "<" + out + ">" : out;
}

[[noreturn]] void unknown_id(std::string_view id) {
  std::string generic;
  std::vector<std::string> kinds, cost_models;
  for_each_family_version([&](const EnvFamily& f, ModelVersion v) {
    generic += (generic.empty() ? "" : ", ") + generic_id(f, v);
    kinds.push_back(f.kind);
    cost_models.push_back(cost_model_tag(v));
  });
  throw InputError("unknown environment '" + std::string(id) + "'; ids are memplace/" +
                   alternatives(kinds) + "-<workload>-on-<chip>-" + alternatives(cost_models) +
                   "-v0 for a shipped workload or a suite instance's on a shipped chip (memplace "
                   "list --ids), or " +
                   generic + " with workload and hardware options (docs/envs/README.md, \"Ids\")");
}

// Moves an option the id fixes out of `given`; naming the same value is accepted, so that
// make(env.id(), env.options()) makes the same environment again.
void drop_fixed_option(std::string_view id, const ParsedId& parsed, const std::string& name,
                       const std::string& fixed, OptionMap& given) {
  auto it = given.find(name);
  if (it == given.end()) return;
  if (it->second != fixed)
    throw InputError(std::string(id) + ": the id fixes the " + name + " to " + fixed + ", got " +
                     name + "=" + it->second + " (for any " + name + " use " +
                     generic_id(*parsed.family, parsed.cost_model) + ")");
  given.erase(it);
}

std::string version_description(ModelVersion v) {
  return v == ModelVersion::v0   ? ""
         : v == ModelVersion::v1 ? ", streaming dynamics (cost model v1)"
                                 : ", addressed dynamics (cost model v2)";
}

EnvSpec spec_of(const EnvFamily& f, ModelVersion v, const std::string& workload,
                const std::string& hardware, std::string suite, const std::string& description) {
  EnvSpec spec;
  spec.id = workload.empty() ? generic_id(f, v) : instance_id(f, v, workload, hardware);
  spec.kind = f.kind;
  spec.version = std::string(version_name(v));
  spec.cost_model = cost_model_tag(v);
  spec.revision = "v" + std::to_string(f.revision);
  spec.workload = workload;
  spec.hardware = hardware;
  spec.suite = std::move(suite);
  spec.path_id = path_id(f, v, workload, hardware);
  spec.description = description;
  return spec;
}

// The cost model a family's environments of a suite's instances are listed at: the suite's, or
// for a family without it (the malloc env, v2 only) its newest.
std::optional<ModelVersion> suite_cost_model(const EnvFamily& f, ModelVersion suite) {
  if (has_cost_model(f, suite)) return suite;
  if (f.versions.empty() || f.versions.back() < suite) return std::nullopt;
  return f.versions.back();
}

std::vector<EnvSpec> make_registered_envs() {
  std::vector<EnvSpec> specs;
  for_each_family_version([&](const EnvFamily& f, ModelVersion v) {
    const std::string description = f.description + version_description(v);
    specs.push_back(
        spec_of(f, v, "", "", "", description + "; any workload and hardware by option"));
    for (const std::string& h : embedded_hardware_names())
      for (const std::string& w : embedded_workload_names())
        specs.push_back(spec_of(f, v, w, h, "", description + " on " + w + " (" + h + ")"));
  });
  for (const std::string& name : embedded_suite_names()) {
    const Suite suite = load_suite(name);
    for (const EnvFamily& f : env_families()) {
      const std::optional<ModelVersion> v = suite_cost_model(f, parse_version(suite.cost_model));
      if (!v) continue;
      for (const SuiteInstance& instance : suite.instances)
        specs.push_back(spec_of(f, *v, instance.workload, instance.hardware, suite.name,
                                f.description + version_description(*v) + " on suite " +
                                    suite.name + "'s " + instance.id()));
    }
  }
  return specs;
}

}  // namespace

std::vector<OptionSpec> EnvFamily::option_specs(ModelVersion version) const {
  std::vector<OptionSpec> specs = ModelSpec::option_specs(version);
  for (OptionSpec& own : own_option_specs())
    specs.push_back(std::move(own));
  return specs;
}

const std::vector<EnvSpec>& registered_envs() {
  static const std::vector<EnvSpec> specs = make_registered_envs();
  return specs;
}

std::vector<OptionSpec> env_option_specs(std::string_view id) {
  std::optional<ParsedId> parsed;
  try {
    parsed = parse_id(id);
  } catch (const InputError&) {
    return {};
  }
  if (!parsed) return {};
  std::vector<OptionSpec> specs = parsed->family->option_specs(parsed->cost_model);
  // The id fixes the workload, and the hardware when it names it.
  if (!parsed->workload.empty())
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "workload"; });
  if (!parsed->hardware.empty())
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "hardware"; });
  return specs;
}

std::string env_id_for(std::string_view kind, ModelVersion cost_model, std::string_view workload,
                       std::string_view hardware) {
  for (const EnvFamily& f : env_families()) {
    if (f.kind != kind) continue;
    if (!has_cost_model(f, cost_model))
      throw InputError("env_id_for: " + std::string(kind) + " has no cost model " +
                       cost_model_tag(cost_model));
    return workload.empty() ? generic_id(f, cost_model)
                            : instance_id(f, cost_model, workload,
                                          hardware.empty() ? kDefaultHardware : hardware);
  }
  throw InputError("env_id_for: no environment kind '" + std::string(kind) + "'");
}

std::unique_ptr<Env> make(std::string_view id, const OptionMap& options) {
  const auto parsed = parse_id(id);
  // A suite's workloads have ids too (docs/suite.md): those of its instances are listed, and any
  // suite workload can be made on any chip.
  if (!parsed ||
      (!parsed->workload.empty() && !contains(embedded_workload_names(), parsed->workload) &&
       !find_embedded(embedded_suite_workloads(), parsed->workload)))
    unknown_id(id);
  if (!parsed->hardware.empty() && !contains(embedded_hardware_names(), parsed->hardware))
    throw InputError("unknown environment '" + std::string(id) + "': no shipped hardware model '" +
                     parsed->hardware + "' (memplace list)");
  OptionMap given = options;
  if (!parsed->workload.empty())
    drop_fixed_option(id, *parsed, "workload", parsed->workload, given);
  if (!parsed->hardware.empty())
    drop_fixed_option(id, *parsed, "hardware", parsed->hardware, given);
  OptionMap resolved = resolve_options(id, env_option_specs(id), given);
  if (!parsed->workload.empty()) resolved["workload"] = parsed->workload;
  if (!parsed->hardware.empty()) resolved["hardware"] = parsed->hardware;
  // The model's options build the context; the rest are the family's own.
  OptionMap own;
  for (const OptionSpec& spec : parsed->family->own_option_specs())
    own[spec.name] = resolved.at(spec.name);
  return parsed->family->make(
      std::string(id),
      make_placement_context(ModelSpec::from_options(resolved), parsed->cost_model), own);
}

}  // namespace memplace
