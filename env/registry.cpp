#include "env/registry.hpp"

#include <algorithm>
#include <optional>

#include "env/errors.hpp"
#include "env/model/workload.hpp"

namespace memplace {

namespace {

constexpr std::string_view kPrefix = "memplace/";

struct ParsedId {
  const EnvFamily* family;
  std::string workload;  // empty: generic
};

std::string generic_id(const EnvFamily& f) {
  return std::string(kPrefix) + f.kind + "-" + f.version;
}

std::optional<ParsedId> parse_id(std::string_view id) {
  if (!id.starts_with(kPrefix)) return std::nullopt;
  for (const EnvFamily& f : env_families()) {
    const std::string suffix = "-" + f.version;
    if (!id.ends_with(suffix)) continue;
    const std::string_view body =
        id.substr(kPrefix.size(), id.size() - kPrefix.size() - suffix.size());
    if (body == f.kind) return ParsedId{&f, ""};
    if (body.starts_with(f.kind) && body.size() > f.kind.size() + 1 && body[f.kind.size()] == '/')
      return ParsedId{&f, std::string(body.substr(f.kind.size() + 1))};
  }
  return std::nullopt;
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
                   alternatives([](const EnvFamily& f) { return f.kind; }) + "/<workload>-" +
                   alternatives([](const EnvFamily& f) { return f.version; }) +
                   " for a shipped workload (memplace list), or " + generic +
                   " with a workload option");
}

}  // namespace

std::vector<EnvSpec> registered_envs() {
  std::vector<EnvSpec> specs;
  for (const EnvFamily& f : env_families()) {
    specs.push_back(
        {generic_id(f), f.kind, "", f.description + "; any workload and hardware by option"});
    for (const std::string& w : embedded_workload_names()) {
      specs.push_back({std::string(kPrefix) + f.kind + "/" + w + "-" + f.version, f.kind, w,
                       f.description + " on " + w});
    }
  }
  return specs;
}

std::vector<OptionSpec> env_option_specs(std::string_view id) {
  const auto parsed = parse_id(id);
  if (!parsed) return {};
  std::vector<OptionSpec> specs = parsed->family->option_specs();
  if (!parsed->workload.empty()) {
    // The id fixes the workload.
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "workload"; });
  }
  return specs;
}

std::unique_ptr<Env> make(std::string_view id, const OptionMap& options) {
  const auto parsed = parse_id(id);
  const std::vector<std::string> shipped = embedded_workload_names();
  if (!parsed || (!parsed->workload.empty() &&
                  std::find(shipped.begin(), shipped.end(), parsed->workload) == shipped.end()))
    unknown_id(id);
  const std::vector<OptionSpec> specs = env_option_specs(id);
  OptionMap given = options;
  if (!parsed->workload.empty()) {
    // The id fixes the workload. Naming that same workload is accepted, so that
    // make(env.id(), env.options()) makes the same environment again.
    if (auto it = given.find("workload"); it != given.end()) {
      if (it->second != parsed->workload) {
        throw InputError(std::string(id) + ": the id fixes the workload to " + parsed->workload +
                         ", got workload=" + it->second + " (for any workload use " +
                         generic_id(*parsed->family) + ")");
      }
      given.erase(it);
    }
  }
  OptionMap resolved = resolve_options(id, specs, given);
  if (!parsed->workload.empty()) resolved["workload"] = parsed->workload;
  return parsed->family->make(std::string(id), make_placement_context(resolved), resolved);
}

}  // namespace memplace
