#include "env/registry.hpp"

#include <algorithm>
#include <optional>

#include "env/errors.hpp"
#include "env/model/hardware.hpp"
#include "env/model/workload.hpp"

namespace memplace {

namespace {

constexpr std::string_view kPrefix = "memplace/";

struct ParsedId {
  const EnvFamily* family;
  std::string workload;  // empty: generic
  std::string hardware;  // empty: not fixed by the id
};

std::string generic_id(const EnvFamily& f) {
  return std::string(kPrefix) + f.kind + "-" + f.version;
}

std::string fixed_id(const EnvFamily& f, std::string_view workload, std::string_view hardware) {
  std::string id = std::string(kPrefix) + f.kind + "/" + std::string(workload);
  if (hardware != kDefaultHardware) id += "@" + std::string(hardware);
  return id + "-" + f.version;
}

std::optional<ParsedId> parse_id(std::string_view id) {
  if (!id.starts_with(kPrefix)) return std::nullopt;
  for (const EnvFamily& f : env_families()) {
    const std::string suffix = "-" + f.version;
    if (!id.ends_with(suffix)) continue;
    const std::string_view body =
        id.substr(kPrefix.size(), id.size() - kPrefix.size() - suffix.size());
    if (body == f.kind) return ParsedId{&f, "", ""};
    if (!body.starts_with(f.kind) || body.size() <= f.kind.size() + 1 || body[f.kind.size()] != '/')
      continue;
    const std::string_view fixed = body.substr(f.kind.size() + 1);
    const std::size_t at = fixed.find('@');
    if (at == std::string_view::npos) return ParsedId{&f, std::string(fixed), ""};
    return ParsedId{&f, std::string(fixed.substr(0, at)), std::string(fixed.substr(at + 1))};
  }
  return std::nullopt;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "a|b" of the distinct values, in order.
std::string alternatives(std::string (*field)(const EnvFamily&)) {
  std::vector<std::string> seen;
  for (const EnvFamily& f : env_families())
    if (std::find(seen.begin(), seen.end(), field(f)) == seen.end()) seen.push_back(field(f));
  std::string out;
  for (const std::string& v : seen)
    out += (out.empty() ? "" : "|") + v;
  return seen.size() > 1 ? "<" + out + ">" : out;
}

[[noreturn]] void unknown_id(std::string_view id) {
  std::string generic;
  for (const EnvFamily& f : env_families())
    generic += (generic.empty() ? "" : ", ") + generic_id(f);
  throw InputError("unknown environment '" + std::string(id) + "'; ids are memplace/" +
                   alternatives([](const EnvFamily& f) { return f.kind; }) +
                   "/<workload>[@<hardware>]-" +
                   alternatives([](const EnvFamily& f) { return f.version; }) +
                   " for a shipped workload and hardware model (memplace list), or " + generic +
                   " with workload and hardware options");
}

// Moves an option the id fixes out of `given`; naming the same value is accepted, so that
// make(env.id(), env.options()) makes the same environment again.
void drop_fixed_option(std::string_view id, const EnvFamily& family, const std::string& name,
                       const std::string& fixed, OptionMap& given) {
  auto it = given.find(name);
  if (it == given.end()) return;
  if (it->second != fixed)
    throw InputError(std::string(id) + ": the id fixes the " + name + " to " + fixed + ", got " +
                     name + "=" + it->second + " (for any " + name + " use " + generic_id(family) +
                     ")");
  given.erase(it);
}

}  // namespace

std::vector<EnvSpec> registered_envs() {
  std::vector<EnvSpec> specs;
  for (const EnvFamily& f : env_families()) {
    specs.push_back(
        {generic_id(f), f.kind, "", "", f.description + "; any workload and hardware by option"});
    for (const std::string& h : embedded_hardware_names()) {
      const bool fixed = h != kDefaultHardware;
      for (const std::string& w : embedded_workload_names())
        specs.push_back({fixed_id(f, w, h), f.kind, w, fixed ? h : "",
                         f.description + " on " + w + " (" + h + ")"});
    }
  }
  return specs;
}

std::vector<OptionSpec> env_option_specs(std::string_view id) {
  const auto parsed = parse_id(id);
  if (!parsed) return {};
  std::vector<OptionSpec> specs = parsed->family->option_specs();
  // The id fixes the workload, and the hardware after an @.
  if (!parsed->workload.empty())
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "workload"; });
  if (!parsed->hardware.empty())
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "hardware"; });
  return specs;
}

std::unique_ptr<Env> make(std::string_view id, const OptionMap& options) {
  const auto parsed = parse_id(id);
  if (!parsed ||
      (!parsed->workload.empty() && !contains(embedded_workload_names(), parsed->workload)))
    unknown_id(id);
  if (!parsed->hardware.empty() && !contains(embedded_hardware_names(), parsed->hardware))
    throw InputError("unknown environment '" + std::string(id) + "': no shipped hardware model '" +
                     parsed->hardware + "' (memplace list)");
  OptionMap given = options;
  if (!parsed->workload.empty())
    drop_fixed_option(id, *parsed->family, "workload", parsed->workload, given);
  if (!parsed->hardware.empty())
    drop_fixed_option(id, *parsed->family, "hardware", parsed->hardware, given);
  OptionMap resolved = resolve_options(id, env_option_specs(id), given);
  if (!parsed->workload.empty()) resolved["workload"] = parsed->workload;
  if (!parsed->hardware.empty()) resolved["hardware"] = parsed->hardware;
  return parsed->family->make(std::string(id), make_placement_context(resolved), resolved);
}

}  // namespace memplace
