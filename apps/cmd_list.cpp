// memplace list: the shipped workloads, hardware models and suites, and the registered
// environments and agents with their options.
#include <nlohmann/json.hpp>

#include "agents/registry.hpp"
#include "apps/commands.hpp"
#include "apps/shared/text_table.hpp"
#include "env/model/inputs/hardware.hpp"
#include "env/model/inputs/suite.hpp"
#include "env/model/inputs/workload.hpp"
#include "env/registry.hpp"

namespace memplace::cli {

namespace {

std::string join(const std::vector<std::string>& values, const std::string& separator) {
  std::string out;
  for (const std::string& v : values)
    out += (out.empty() ? "" : separator) + v;
  return out;
}

// Every registered id in the JSON (with its options); in text, the ids, and the options of the
// generic ids only (a per-workload id takes the same ones minus `workload`).
void list_environments(nlohmann::json& doc, std::ostream* text) {
  TextTable ids({"environment", "description"});
  std::vector<std::pair<std::string, TextTable>> option_tables;
  for (const EnvSpec& env : registered_envs()) {
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
                                   {"workload", env.workload},
                                   {"hardware", env.hardware},
                                   {"description", env.description},
                                   {"options", options}});
    if (env.workload.empty()) option_tables.emplace_back(env.id, std::move(table));
  }
  if (text == nullptr) return;
  ids.print(*text);
  for (const auto& [id, table] : option_tables) {
    *text << "\nOptions of " << id << " (the per-workload ids take the same, without workload):\n";
    table.print(*text);
  }
}

// The shipped suites' instances with their split (docs/suite.md); `memplace references --suite`
// gives their references.
void list_suites(nlohmann::json& doc, std::ostream* text) {
  for (const std::string& name : embedded_suite_names()) {
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
      entries.push_back({{"instance", instance.id()},
                         {"workload", instance.workload},
                         {"hardware", instance.hardware},
                         {"split", std::string(split_name(split))},
                         {"family", family}});
    }
    doc["suites"].push_back(
        {{"name", suite.name}, {"cost_model", suite.cost_model}, {"instances", entries}});
    if (text == nullptr) continue;
    *text << "\nSuite " << suite.name << " (cost model " << suite.cost_model
          << "): " << suite.instances.size() << " instances, " << dev << " dev and "
          << suite.instances.size() - dev << " test; their references: memplace references --suite "
          << suite.name << "\n";
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
                             {"hyperparameters", specs}});
  }
  if (text == nullptr) return;
  *text << "\n";
  agents.print(*text);
  *text << "\nAgent hyperparameters (memplace train -p name=value):\n";
  hyperparameters.print(*text);
}

}  // namespace

void add_list_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "list",
      "List the shipped workloads, hardware models, environments and agents (with their options)");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON instead of tables");
  cmd->callback([io, json] {
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
      list_environments(doc, nullptr);
      list_agents(doc, nullptr);
      io.out << doc.dump(2) << "\n";
      return;
    }
    workloads.print(io.out);
    io.out << "\n";
    hardware.print(io.out);
    list_suites(doc, &io.out);
    io.out << "\n";
    list_environments(doc, &io.out);
    list_agents(doc, &io.out);
  });
}

}  // namespace memplace::cli
