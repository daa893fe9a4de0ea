#include "env/registry.hpp"

#include "env/sequential_env.hpp"
#include "env/single_step_env.hpp"

namespace memplace {

namespace {

constexpr std::string_view kPrefix = "memplace/";
constexpr std::string_view kVersion = "-v0";

struct ParsedId {
  std::string kind;
  std::string workload;  // empty: generic
};

std::optional<ParsedId> parse_id(std::string_view id) {
  if (!id.starts_with(kPrefix) || !id.ends_with(kVersion)) return std::nullopt;
  std::string_view body = id.substr(kPrefix.size(), id.size() - kPrefix.size() - kVersion.size());
  for (std::string_view kind : {"single-step", "sequential"}) {
    if (body == kind) return ParsedId{std::string(kind), ""};
    if (body.starts_with(kind) && body.size() > kind.size() + 1 && body[kind.size()] == '/') {
      return ParsedId{std::string(kind), std::string(body.substr(kind.size() + 1))};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<EnvSpec> registered_envs() {
  std::vector<EnvSpec> specs;
  for (std::string_view kind : {"single-step", "sequential"}) {
    const std::string k(kind);
    const std::string what = kind == "single-step" ? "the whole mapping in one step (EGRL)"
                                                   : "one tensor per step, masked (mallocGame)";
    specs.push_back({std::string(kPrefix) + k + std::string(kVersion), k, "",
                     what + "; any workload and hardware by option"});
    for (const std::string& w : embedded_workload_names()) {
      specs.push_back(
          {std::string(kPrefix) + k + "/" + w + std::string(kVersion), k, w, what + " on " + w});
    }
  }
  return specs;
}

std::vector<OptionSpec> env_option_specs(std::string_view id) {
  const auto parsed = parse_id(id);
  if (!parsed) return {};
  std::vector<OptionSpec> specs =
      parsed->kind == "single-step" ? SingleStepEnv::option_specs() : SequentialEnv::option_specs();
  if (!parsed->workload.empty()) {
    // The id fixes the workload.
    std::erase_if(specs, [](const OptionSpec& s) { return s.name == "workload"; });
  }
  return specs;
}

std::unique_ptr<Env> make(std::string_view id, const OptionMap& options) {
  const auto parsed = parse_id(id);
  bool known = false;
  for (const EnvSpec& spec : registered_envs())
    known = known || spec.id == id;
  if (!parsed || !known) {
    std::string hint;
    for (const EnvSpec& spec : registered_envs()) {
      if (spec.workload.empty()) hint += (hint.empty() ? "" : ", ") + spec.id;
    }
    throw InputError("unknown environment '" + std::string(id) +
                     "'; ids are memplace/<single-step|sequential>/<workload>-v0 for a shipped "
                     "workload (memplace list), or " +
                     hint + " with a workload option");
  }
  const std::vector<OptionSpec> specs = env_option_specs(id);
  OptionMap given = options;
  if (!parsed->workload.empty()) {
    // The id fixes the workload. Naming that same workload is accepted, so that
    // make(env.id(), env.options()) makes the same environment again.
    if (auto it = given.find("workload"); it != given.end()) {
      if (it->second != parsed->workload) {
        throw InputError(std::string(id) + ": the id fixes the workload to " + parsed->workload +
                         ", got workload=" + it->second + " (for any workload use memplace/" +
                         parsed->kind + "-v0)");
      }
      given.erase(it);
    }
  }
  OptionMap resolved = resolve_options(id, specs, given);
  if (!parsed->workload.empty()) resolved["workload"] = parsed->workload;
  auto context = make_placement_context(resolved);
  if (parsed->kind == "single-step") {
    return std::make_unique<SingleStepEnv>(std::string(id), context,
                                           SingleStepEnv::parse_options(resolved));
  }
  return std::make_unique<SequentialEnv>(std::string(id), context,
                                         SequentialEnv::parse_options(resolved));
}

}  // namespace memplace
