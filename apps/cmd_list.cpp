// memplace list: the shipped workloads, hardware models and suites, and the registered
// environments and agents with their options.
#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "agents/registry.hpp"
#include "agents/shipped_policies.hpp"
#include "apps/commands.hpp"
#include "apps/shared/text_table.hpp"
#include "base/number_format.hpp"
#include "base/text.hpp"
#include "env/registry.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"
#include "model/inputs/workload.hpp"

namespace memplace::cli {

namespace {

// Appends `value` unless it is empty or already there (first-appearance order).
void add_once(std::vector<std::string>& to, const std::string& value) {
  if (!value.empty() && std::find(to.begin(), to.end(), value) == to.end()) to.push_back(value);
}

// Which environments `memplace list` shows: every one, or those of a kind, version and hardware.
struct EnvFilter {
  std::string kind, version, hardware;
  bool any() const { return !kind.empty() || !version.empty() || !hardware.empty(); }
  // A generic id runs on the default hardware unless its options say otherwise.
  bool matches(const EnvSpec& env) const {
    const std::string& on = env.hardware.empty() ? std::string(kDefaultHardware) : env.hardware;
    return (kind.empty() || env.kind == kind) && (version.empty() || env.version == version) &&
           (hardware.empty() || on == hardware);
  }
};

std::vector<EnvSpec> listed_envs(const EnvFilter& filter) {
  std::vector<EnvSpec> out;
  for (const EnvSpec& env : registered_envs())
    if (filter.matches(env)) out.push_back(env);
  return out;
}

// One row per family, cost model and suite (in the registry's order): its generic id, the
// workloads it has an id for and the chips those ids name (285 ids in one list were hard to read).
void print_env_groups(const std::vector<EnvSpec>& envs, std::ostream& out) {
  struct Group {
    std::string kind, cost_model, suite, generic = "—";
    std::size_t ids = 0;
    std::vector<std::string> workloads, hardware;
  };
  std::vector<Group> groups;
  for (const EnvSpec& env : envs) {
    auto group = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.kind == env.kind && g.cost_model == env.cost_model && g.suite == env.suite;
    });
    if (group == groups.end()) {
      groups.push_back(Group{});
      group = groups.end() - 1;
      group->kind = env.kind;
      group->cost_model = env.cost_model;
      group->suite = env.suite;
    }
    if (env.workload.empty()) group->generic = env.id;
    ++group->ids;
    add_once(group->workloads, env.workload);
    add_once(group->hardware, env.hardware);
  }
  TextTable table({"kind", "cost model", "generic id", "ids", "workloads", "on"});
  for (const Group& g : groups)
    table.add_row({g.kind, g.cost_model, g.generic, std::to_string(g.ids),
                   g.suite.empty() ? join(g.workloads, ", ")
                                   : "suite " + g.suite + "'s instances (memplace list --suite " +
                                         g.suite + ")",
                   join(g.hardware, ", ")});
  table.print(out);
  out << "Ids: memplace/<kind>-<workload>-on-<chip>-cm<N>-v<R> (docs/envs/README.md, \"Ids\"); "
         "every id: memplace list --ids, or with --kind, --env-version, --hardware a table of the "
         "matching ones.\n";
}

// The environments in the JSON (with their options); in text, grouped — or the ids a filter
// keeps — and the options of the generic ids (a per-workload id takes the same ones minus
// `workload`).
void list_environments(nlohmann::json& doc, std::ostream* text, const EnvFilter& filter) {
  const std::vector<EnvSpec> envs = listed_envs(filter);
  TextTable ids({"environment", "description"});
  std::vector<std::pair<std::string, TextTable>> option_tables;
  for (const EnvSpec& env : envs) {
    ids.add_row({env.id, env.description});
    nlohmann::json options = nlohmann::json::array();
    TextTable table({"option", "default", "values", "meaning"});
    for (const OptionSpec& o : env_option_specs(env.id)) {
      options.push_back({{"name", o.name},
                         {"default", o.default_value},
                         {"choices", o.choices},
                         {"help", o.help}});
      table.add_row({o.name, o.default_value,
                     o.choices.empty() ? "a name or a file" : join(o.choices, ", "), o.help});
    }
    doc["environments"].push_back({{"id", env.id},
                                   {"kind", env.kind},
                                   {"cost_model", env.cost_model},
                                   {"revision", env.revision},
                                   {"version", env.version},
                                   {"workload", env.workload},
                                   {"hardware", env.hardware},
                                   {"suite", env.suite},
                                   {"path_id", env.path_id},
                                   {"description", env.description},
                                   {"options", options}});
    if (env.workload.empty()) option_tables.emplace_back(env.id, std::move(table));
  }
  if (text == nullptr) return;
  if (filter.any()) {
    ids.print(*text);
    return;
  }
  print_env_groups(envs, *text);
  for (const auto& [id, table] : option_tables) {
    *text << "\nOptions of " << id
          << " (the per-workload ids take the same, without workload and hardware):\n";
    table.print(*text);
  }
}

// The shipped suites' instances with their split (docs/suite.md); `memplace references --suite`
// gives their references.
void list_suites(nlohmann::json& doc, std::ostream* text, const std::string& only = "") {
  for (const std::string& name : embedded_suite_names()) {
    if (!only.empty() && name != only) continue;
    const Suite suite = load_suite(name);
    TextTable instances({"instance", "split", "family", "model", "shape"});
    nlohmann::json entries = nlohmann::json::array();
    int dev = 0;
    for (const SuiteInstance& instance : suite.instances) {
      const SuiteWorkload& w = suite.workload(instance.workload);
      const std::string family = suite.model(w.model).family;
      const Split split = suite.split(instance);
      dev += split == Split::dev;
      instances.add_row(
          {instance.id(), std::string(split_name(split)), family, w.model, Suite::shape(w)});
      nlohmann::json ids = nlohmann::json::object();
      for (const EnvSpec& env : registered_envs())
        if (env.suite == suite.name && env.workload == instance.workload &&
            env.hardware == instance.hardware)
          ids[env.kind] = env.id;
      entries.push_back({{"instance", instance.id()},
                         {"workload", instance.workload},
                         {"hardware", instance.hardware},
                         {"split", std::string(split_name(split))},
                         {"family", family},
                         {"env_ids", ids}});
    }
    doc["suites"].push_back(
        {{"name", suite.name}, {"cost_model", suite.cost_model}, {"instances", entries}});
    if (text == nullptr) continue;
    *text << "\nSuite " << suite.name << " (cost model " << suite.cost_model
          << "): " << suite.instances.size() << " instances, " << dev << " dev and "
          << suite.instances.size() - dev << " test; their references: memplace references --suite "
          << suite.name << "; their environments' ids: memplace list --suite " << suite.name
          << " --ids\n";
    instances.print(*text);
  }
}

// The agents with their hyperparameters (docs/agents.md).
void list_agents(nlohmann::json& doc, std::ostream* text) {
  TextTable agents({"agent", "envs", "env versions", "description"});
  TextTable hyperparameters({"agent", "hyperparameter", "default", "meaning"});
  for (const agents::AgentInfo& agent : agents::agent_registry()) {
    const std::vector<std::string> versions = agent.version_names();
    agents.add_row({agent.name, join(agent.envs, ", "), join(versions, ", "), agent.summary});
    nlohmann::json specs = nlohmann::json::array();
    for (const OptionSpec& h : agent.hyperparameters) {
      hyperparameters.add_row({agent.name, h.name, h.default_value, h.help});
      specs.push_back({{"name", h.name}, {"default", h.default_value}, {"help", h.help}});
    }
    doc["agents"].push_back({{"name", agent.name},
                             {"envs", agent.envs},
                             {"env_versions", versions},
                             {"description", agent.summary},
                             {"has_policy", agent.has_policy},
                             {"starts_from_policy", agent.starts_from_policy},
                             {"hyperparameters", specs}});
  }
  if (text == nullptr) return;
  *text << "\n";
  agents.print(*text);
  *text << "\nAgent hyperparameters (memplace train -p name=value):\n";
  hyperparameters.print(*text);
}

// The shipped policies (docs/place.md#the-shipped-policies): what each was trained for.
void list_policies(nlohmann::json& doc, std::ostream* text) {
  TextTable policies({"policy", "trained for", "size"});
  doc["policies"] = nlohmann::json::array();
  for (const std::string& name : agents::shipped_policy_names()) {
    const std::optional<agents::PolicyFile> file = agents::load_shipped_policy(name);
    const std::string spec = file->spec ? file->spec->to_string() : "";
    const std::size_t bytes = find_embedded(agents::embedded_policies(), name)->text.size();
    policies.add_row({name, spec, format_bytes(static_cast<double>(bytes))});
    doc["policies"].push_back({{"name", name}, {"spec", spec}, {"bytes", bytes}});
  }
  if (text == nullptr) return;
  *text << "\nShipped policies (memplace place MODEL --hardware CHIP uses the chip's):\n";
  policies.print(*text);
}

}  // namespace

void add_list_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "list",
      "List the shipped workloads, hardware models, suites, environments, agents (with their "
      "options) and policies; with a filter, only the matching environments or a suite's "
      "instances");
  auto json = std::make_shared<bool>(false);
  auto ids_only = std::make_shared<bool>(false);
  auto filter = std::make_shared<EnvFilter>();
  auto suite = std::make_shared<std::string>();
  cmd->add_flag("--json", *json, "Print JSON instead of tables");
  cmd->add_flag("--ids", *ids_only,
                "Print the environment ids, one per line, for scripts (with --suite: its "
                "instances' environments, of every kind or of --kind)");
  std::vector<std::string> kinds, versions;
  for (const EnvSpec& env : registered_envs()) {
    add_once(kinds, env.kind);
    add_once(versions, env.version);
  }
  cmd->add_option("--kind", filter->kind, "Only the environments of this kind")
      ->check(CLI::IsMember(kinds));
  cmd->add_option("--env-version", filter->version,
                  "Only the environments of this cost model (v1: the ids of cm1)")
      ->check(CLI::IsMember(versions));
  cmd->add_option("--hardware", filter->hardware,
                  "Only the environments on this hardware (" + std::string(kDefaultHardware) +
                      " includes the generic ids)")
      ->check(CLI::IsMember(embedded_hardware_names()));
  cmd->add_option("--suite", *suite, "Only this suite's instances, with their split")
      ->check(CLI::IsMember(embedded_suite_names()))
      ->excludes(cmd->get_option("--env-version"))
      ->excludes(cmd->get_option("--hardware"));
  cmd->callback([io, json, ids_only, filter, suite] {
    if (!suite->empty()) {
      nlohmann::json doc;
      list_suites(doc, (*json || *ids_only) ? nullptr : &io.out, *suite);
      if (*json) io.out << doc.dump(2) << "\n";
      if (*ids_only && !*json)
        for (const auto& instance : doc["suites"][0]["instances"])
          for (const auto& [kind, id] : instance["env_ids"].items())
            if (filter->kind.empty() || kind == filter->kind)
              io.out << id.get<std::string>() << "\n";
      return;
    }
    if (*ids_only || filter->any()) {
      nlohmann::json doc;
      list_environments(doc, (*json || *ids_only) ? nullptr : &io.out, *filter);
      if (*json) io.out << doc.dump(2) << "\n";
      if (*ids_only && !*json)
        for (const auto& env : doc["environments"])
          io.out << env["id"].get<std::string>() << "\n";
      return;
    }
    nlohmann::json doc;
    TextTable workloads({"workload", "layers", "edges", "MACs", "weights", "description"});
    for (const std::string& name : embedded_workload_names()) {
      const Workload w = load_workload(name);
      workloads.add_row({name, std::to_string(w.size()), std::to_string(w.num_edges()),
                         format_count(static_cast<double>(w.total_macs())),
                         format_bytes(static_cast<double>(w.total_weight_bytes())),
                         w.info().description});
      doc["workloads"].push_back({{"name", name},
                                  {"layers", w.size()},
                                  {"edges", w.num_edges()},
                                  {"macs", w.total_macs()},
                                  {"weight_bytes", w.total_weight_bytes()}});
    }
    TextTable hardware({"hardware", "memories", "description"});
    for (const std::string& name : embedded_hardware_names()) {
      const Hardware hw = load_hardware(name);
      std::string memories;
      for (const Memory& m : hw.memories) {
        memories += (memories.empty() ? "" : ", ") + m.name + " " +
                    format_bytes(static_cast<double>(m.capacity_bytes));
      }
      hardware.add_row({name, memories, hw.description});
      doc["hardware"].push_back({{"name", name}, {"memories", hw.memories.size()}});
    }
    if (*json) {
      list_suites(doc, nullptr);
      list_environments(doc, nullptr, {});
      list_agents(doc, nullptr);
      list_policies(doc, nullptr);
      io.out << doc.dump(2) << "\n";
      return;
    }
    workloads.print(io.out);
    io.out << "\n";
    hardware.print(io.out);
    list_suites(doc, &io.out);
    io.out << "\n";
    list_environments(doc, &io.out, {});
    list_agents(doc, &io.out);
    list_policies(doc, &io.out);
  });
}

}  // namespace memplace::cli
