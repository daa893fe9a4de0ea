#include "env/registry.hpp"

#include <algorithm>
#include <optional>

#include "base/errors.hpp"
#include "env/model/inputs/embedded.hpp"
#include "env/model/inputs/hardware.hpp"
#include "env/model/inputs/workload.hpp"

namespace memplace {

namespace {

constexpr std::string_view kPrefix = "memplace/";

struct ParsedId {
  const EnvFamily* family;
  ModelVersion version;
  std::string workload;  // empty: generic
  std::string hardware;  // empty: not fixed by the id
};

std::string generic_id(const EnvFamily& f, ModelVersion version) {
  return std::string(kPrefix) + f.kind + "-" + std::string(version_name(version));
}

std::string fixed_id(const EnvFamily& f, ModelVersion version, std::string_view workload,
                     std::string_view hardware) {
  std::string id = std::string(kPrefix) + f.kind + "/" + std::string(workload);
  if (hardware != kDefaultHardware) id += "@" + std::string(hardware);
  return id + "-" + std::string(version_name(version));
}

std::optional<ParsedId> parse_id(std::string_view id) {
  if (!id.starts_with(kPrefix)) return std::nullopt;
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

// Every (family, version) pair, version by version: the order of `memplace list`.
template <class Visit>
void for_each_family_version(Visit visit) {
  for (const ModelVersion v : kModelVersions)
    for (const EnvFamily& f : env_families())
      if (std::ranges::find(f.versions, v) != f.versions.end()) visit(f, v);
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
  std::vector<std::string> kinds, versions;
  for_each_family_version([&](const EnvFamily& f, ModelVersion v) {
    generic += (generic.empty() ? "" : ", ") + generic_id(f, v);
    kinds.push_back(f.kind);
    versions.emplace_back(version_name(v));
  });
  throw InputError("unknown environment '" + std::string(id) + "'; ids are memplace/" +
                   alternatives(kinds) + "/<workload>[@<hardware>]-" + alternatives(versions) +
                   " for a shipped workload and hardware model (memplace list), or " + generic +
                   " with workload and hardware options");
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
                     generic_id(*parsed.family, parsed.version) + ")");
  given.erase(it);
}

}  // namespace

std::vector<OptionSpec> EnvFamily::option_specs(ModelVersion version) const {
  std::vector<OptionSpec> specs = ModelSpec::option_specs(version);
  for (OptionSpec& own : own_option_specs())
    specs.push_back(std::move(own));
  return specs;
}

std::vector<EnvSpec> registered_envs() {
  std::vector<EnvSpec> specs;
  for_each_family_version([&](const EnvFamily& f, ModelVersion v) {
    const std::string version(version_name(v));
    const std::string description =
        f.description + (v == ModelVersion::v0   ? ""
                         : v == ModelVersion::v1 ? ", streaming dynamics (cost model v1)"
                                                 : ", addressed dynamics (cost model v2)");
    specs.push_back({generic_id(f, v), f.kind, version, "", "",
                     description + "; any workload and hardware by option"});
    for (const std::string& h : embedded_hardware_names()) {
      const bool fixed = h != kDefaultHardware;
      for (const std::string& w : embedded_workload_names())
        specs.push_back({fixed_id(f, v, w, h), f.kind, version, w, fixed ? h : "",
                         description + " on " + w + " (" + h + ")"});
    }
  });
  return specs;
}

std::vector<OptionSpec> env_option_specs(std::string_view id) {
  const auto parsed = parse_id(id);
  if (!parsed) return {};
  std::vector<OptionSpec> specs = parsed->family->option_specs(parsed->version);
  // The id fixes the workload, and the hardware after an @.
  if (!parsed->workload.empty())
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "workload"; });
  if (!parsed->hardware.empty())
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "hardware"; });
  return specs;
}

std::unique_ptr<Env> make(std::string_view id, const OptionMap& options) {
  const auto parsed = parse_id(id);
  // A suite's workloads have ids too (docs/suite.md), made on demand rather than listed: the
  // suite's instances are named by `memplace list`.
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
      std::string(id), make_placement_context(ModelSpec::from_options(resolved), parsed->version),
      own);
}

}  // namespace memplace
