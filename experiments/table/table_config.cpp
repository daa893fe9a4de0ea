#include "experiments/table/table_config.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "agents/registry.hpp"
#include "base/errors.hpp"
#include "base/yaml_input.hpp"

namespace memplace::experiments {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError("table config: " + message);
}

void require_distinct(const std::vector<std::string>& names, const std::string& field) {
  require(!names.empty(), field + ": empty");
  std::set<std::string> seen;
  for (const std::string& name : names) {
    require(!name.empty(), field + ": an empty name");
    require(seen.insert(name).second, field + ": '" + name + "' is listed twice");
  }
}

void write_options(std::ostringstream& out, const OptionMap& options, const std::string& indent) {
  for (const auto& [name, value] : options)
    out << indent << name << ": " << yaml_quoted(value) << "\n";
}

// The instances of `suite`'s `split` a suite table runs: all of them when `workloads` is empty,
// else `workloads` checked against them.
void resolve_suite_instances(const std::string& suite_name, Split split, ModelVersion version,
                             std::vector<std::string>& workloads) {
  Suite suite;
  try {
    suite = load_suite(suite_name);
  } catch (const InputError& e) {
    require(false, std::string("suite: ") + e.what());
  }
  require(suite.cost_model == version_name(version),
          "suite: suite " + suite.name + " is scored under cost model " + suite.cost_model +
              ", not env_version " + std::string(version_name(version)));
  std::vector<std::string> ids;
  for (const SuiteInstance& instance : suite.instances)
    if (suite.split(instance) == split) ids.push_back(instance.id());
  if (workloads.empty()) {
    workloads = ids;
    return;
  }
  for (const std::string& w : workloads)
    require(std::find(ids.begin(), ids.end(), w) != ids.end(),
            "workloads: '" + w + "' is not an instance of suite " + suite.name + "'s " +
                std::string(split_name(split)) + " split (`memplace references --suite " +
                suite.name + " --split " + std::string(split_name(split)) + "` lists them)");
}

// A suite instance's two halves, or nullopt for a workload name or file.
std::optional<std::pair<std::string, std::string>> split_instance(const std::string& entry) {
  const std::size_t at = entry.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == entry.size() ||
      entry.find_first_of("/\\") < at)
    return std::nullopt;
  return std::pair{entry.substr(0, at), entry.substr(at + 1)};
}

// The names of `names` that `others` does not list, in their order.
std::vector<std::string> not_in(const std::vector<std::string>& names,
                                const std::vector<std::string>& others) {
  std::vector<std::string> result;
  for (const std::string& name : names)
    if (std::find(others.begin(), others.end(), name) == others.end()) result.push_back(name);
  return result;
}

std::vector<std::string> labels(std::vector<std::string> entries) {
  for (std::string& entry : entries)
    entry = workload_label(entry);
  return entries;
}

// Adds "field: before -> after" to `meaning` if the values differ.
void note_difference(std::vector<std::string>& meaning, const std::string& field,
                     const std::string& before, const std::string& after) {
  auto shown = [](const std::string& value) { return value.empty() ? "(none)" : value; };
  if (before != after) meaning.push_back(field + ": " + shown(before) + " -> " + shown(after));
}

// Every option of either map that differs, as `field`.<option>.
void note_options(std::vector<std::string>& meaning, const std::string& field,
                  const OptionMap& before, const OptionMap& after) {
  std::set<std::string> names;
  for (const OptionMap* options : {&before, &after})
    for (const auto& [name, value] : *options)
      names.insert(name);
  auto value_of = [](const OptionMap& options, const std::string& name) {
    const auto it = options.find(name);
    return it == options.end() ? std::string() : it->second;
  };
  for (const std::string& name : names)
    note_difference(meaning, field + "." + name, value_of(before, name), value_of(after, name));
}

// The fields every cell shares: its scoring, its budget, its suite.
void note_table_fields(std::vector<std::string>& meaning, const TableConfig& saved,
                       const TableConfig& next) {
  note_difference(meaning, "suite", saved.suite, next.suite);
  if (!saved.suite.empty() && !next.suite.empty())
    note_difference(meaning, "split", std::string(split_name(saved.split)),
                    std::string(split_name(next.split)));
  note_difference(meaning, "hardware", saved.model.hardware, next.model.hardware);
  note_difference(meaning, "budget", std::to_string(saved.budget), std::to_string(next.budget));
  note_difference(meaning, "env_version", std::string(version_name(saved.env_version)),
                  std::string(version_name(next.env_version)));
  note_options(meaning, "env_options", saved.env_options(), next.env_options());
}

// What a row both configs list runs: its agent (a variant's) and its hyperparameters.
void note_row_fields(std::vector<std::string>& meaning, const TableConfig& saved,
                     const TableConfig& next, const std::string& row) {
  note_difference(meaning, "variants." + row, saved.agent_of(row), next.agent_of(row));
  auto of = [&](const TableConfig& c) {
    const auto it = c.hyperparameters.find(row);
    return it == c.hyperparameters.end() ? OptionMap{} : it->second;
  };
  note_options(meaning, "hyperparameters." + row, of(saved), of(next));
  auto external = [&](const TableConfig& c) {
    const auto it = c.external.find(row);
    return it == c.external.end() ? ExternalAgent{} : it->second;
  };
  const ExternalAgent before = external(saved), after = external(next);
  note_difference(meaning, "external." + row + ".description", before.description,
                  after.description);
  note_difference(meaning, "external." + row + ".code", before.code, after.code);
  note_difference(meaning, "external." + row + ".env", before.env, after.env);
}

bool registered_agent(const std::string& name) {
  return agents::find_agent_or_null(name) != nullptr;
}

// A row of its own name (a variant's or an external agent's): not an agent's, and usable as a run
// folder's name.
void require_row_name(const std::string& row, const std::string& field, const char* what) {
  require(!registered_agent(row), field + ": '" + row + "' is an agent's own name (memplace's " +
                                      row + "); give " + what + " another");
  require(row.find_first_of("/\\ \t") == std::string::npos,
          field + ": '" + row + "' names run folders and cannot hold '/', '\\' or spaces");
}

}  // namespace

TableChange compare_tables(const TableConfig& saved, const TableConfig& next) {
  TableChange change;
  note_table_fields(change.meaning, saved, next);
  for (const std::string& row : next.agents)
    if (std::find(saved.agents.begin(), saved.agents.end(), row) != saved.agents.end())
      note_row_fields(change.meaning, saved, next, row);
  // A field not named above (one added to TableConfig later) still counts: with the cell lists
  // and the rows taken from `saved`, nothing else may differ.
  TableConfig same_cells = next;
  same_cells.agents = saved.agents;
  same_cells.workloads = saved.workloads;
  same_cells.seeds = saved.seeds;
  same_cells.jobs = saved.jobs;
  same_cells.hyperparameters = saved.hyperparameters;
  same_cells.variants = saved.variants;
  same_cells.external = saved.external;
  if (change.meaning.empty() && same_cells.to_yaml() != saved.to_yaml())
    change.meaning.push_back("a field beyond agents, workloads and seeds (see config.yaml)");

  change.agents_added = not_in(next.agents, saved.agents);
  change.agents_dropped = not_in(saved.agents, next.agents);
  change.workloads_added = labels(not_in(next.workloads, saved.workloads));
  change.workloads_dropped = labels(not_in(saved.workloads, next.workloads));
  change.seeds_before = saved.seeds;
  change.seeds_after = next.seeds;
  const bool same_agents = change.agents_added.empty() && change.agents_dropped.empty();
  const bool same_workloads = change.workloads_added.empty() && change.workloads_dropped.empty();
  change.reordered = (same_agents && saved.agents != next.agents) ||
                     (same_workloads && saved.workloads != next.workloads);
  return change;
}

std::string describe_cells_change(const TableChange& change) {
  std::vector<std::string> parts;
  auto list = [&](const char* field, const std::vector<std::string>& added,
                  const std::vector<std::string>& dropped) {
    if (added.empty() && dropped.empty()) return;
    std::string part = field;
    for (const std::string& name : added)
      part += " +" + name;
    for (const std::string& name : dropped)
      part += " -" + name;
    parts.push_back(part);
  };
  list("agents", change.agents_added, change.agents_dropped);
  list("workloads", change.workloads_added, change.workloads_dropped);
  if (change.seeds_before != change.seeds_after)
    parts.push_back("seeds " + std::to_string(change.seeds_before) + " -> " +
                    std::to_string(change.seeds_after));
  if (change.reordered) parts.push_back("lists reordered");
  std::string text;
  for (const std::string& part : parts)
    text += (text.empty() ? "" : ", ") + part;
  return text;
}

std::string workload_label(const std::string& entry) {
  const std::filesystem::path path(entry);
  const std::string extension = path.extension().string();
  if (extension == ".yaml" || extension == ".yml" || entry.find('/') != std::string::npos)
    return path.stem().string();
  return entry;
}

void TableConfig::use_suite(std::string name, Split split_to_run) {
  suite = std::move(name);
  split = split_to_run;
  workloads.clear();
}

ModelSpec TableConfig::model_of(const std::string& entry) const {
  ModelSpec spec = model;
  spec.workload = entry;
  if (const auto instance = split_instance(entry)) {
    spec.workload = instance->first;
    spec.hardware = instance->second;
  }
  return spec;
}

void TableConfig::resolve() {
  require_distinct(agents, "agents");
  if (!suite.empty()) resolve_suite_instances(suite, split, env_version, workloads);
  require_distinct(workloads, "workloads");
  require(!model.hardware.empty(), "hardware: empty");
  require(seeds >= 1 && seeds <= 1000, "seeds: must be in 1..1000");
  require(budget >= 1, "budget: must be at least 1");
  require(jobs >= 0 && jobs <= 1024, "jobs: must be in 0..1024 (0: one per core)");
  for (const auto& variant : variants) {
    // Named copies, not a structured binding: clang 14 (make fuzz) cannot capture one in a lambda.
    const std::string& row = variant.first;
    const std::string& agent = variant.second;
    const std::string field = "variants." + row;
    require(std::find(agents.begin(), agents.end(), row) != agents.end(),
            field + ": '" + row + "' is not in agents");
    require_row_name(row, field, "the variant");
    try {
      agents::find_agent(agent);
    } catch (const InputError& e) {
      require(false, field + ": " + e.what());
    }
  }
  for (const auto& [agent, values] : hyperparameters)
    require(std::find(agents.begin(), agents.end(), agent) != agents.end(),
            "hyperparameters." + agent + ": '" + agent + "' is not in agents");
  for (const auto& [row, about] : external) {
    const std::string field = "external." + row;
    require(std::find(agents.begin(), agents.end(), row) != agents.end(),
            field + ": '" + row + "' is not in agents");
    require(!variants.contains(row), field + ": '" + row + "' is a variant too");
    require_row_name(row, field, "the external agent");
    require(!about.description.empty(), field + ".description: empty (say what the agent is)");
    require(!about.code.empty(), field + ".code: empty (where its code is, with its version)");
    require(std::find(std::begin(kExternalEnvKinds), std::end(kExternalEnvKinds), about.env) !=
                std::end(kExternalEnvKinds),
            field + ".env: '" + about.env + "' (single-step or sequential)");
  }
  for (const std::string& row : agents) {
    if (is_external(row)) continue;
    try {
      agents::find_agent(agent_of(row));
    } catch (const InputError& e) {
      require(false, "agents: " + std::string(e.what()) +
                         "; an agent of your own is an `external` row (docs/leaderboard.md, " +
                         "\"External agents\")");
    }
  }
  // Each cell's config checks the agent, its hyperparameters and the model; an external row's
  // hyperparameters are its own.
  std::map<std::string, OptionMap> resolved;
  for (const std::string& agent : agents) {
    if (is_external(agent)) {
      if (const auto it = hyperparameters.find(agent); it != hyperparameters.end())
        resolved[agent] = it->second;
      continue;
    }
    agents::TrainConfig c = cell(agent, workloads.front(), 0);
    c.resolve();
    resolved[agent] = c.hyperparameters;
  }
  hyperparameters = std::move(resolved);
}

const std::string& TableConfig::agent_of(const std::string& row) const {
  const auto it = variants.find(row);
  return it == variants.end() ? row : it->second;
}

agents::TrainConfig TableConfig::cell(const std::string& agent, const std::string& workload,
                                      std::uint64_t seed) const {
  if (is_external(agent))
    throw std::logic_error("table config: '" + agent +
                           "' is an external agent: memplace does not run it");
  agents::TrainConfig c;
  static_cast<agents::ScoringEnv&>(c) = *this;
  c.model = model_of(workload);
  c.agent = agent_of(agent);
  c.budget = budget;
  c.seed = seed;
  c.threads = 1;  // the table runs cells side by side instead
  c.checkpoint_every = std::max<std::uint64_t>(1, budget / 10);
  if (const auto it = hyperparameters.find(agent); it != hyperparameters.end())
    c.hyperparameters = it->second;
  return c;
}

std::string TableConfig::to_yaml() const {
  std::ostringstream out;
  out << "# memplace table config: `memplace table` with this file reruns the table.\n";
  auto list = [&](const char* key, const std::vector<std::string>& names) {
    out << key << ": [";
    for (std::size_t i = 0; i < names.size(); ++i)
      out << (i ? ", " : "") << yaml_quoted(names[i]);
    out << "]\n";
  };
  list("agents", agents);
  list("workloads", workloads);
  if (!suite.empty())  // absent otherwise: earlier table folders compare equal
    out << "suite: " << yaml_quoted(suite) << "\n"
        << "split: " << split_name(split) << "\n";
  out << "hardware: " << yaml_quoted(model.hardware) << "\n"
      << "seeds: " << seeds << "\n"
      << "budget: " << budget << "\n"
      << "jobs: " << jobs << "\n"
      << env_version_yaml() << env_options_yaml();
  if (!variants.empty()) {  // absent when empty: earlier table folders compare equal
    out << "variants:\n";
    for (const auto& [row, agent] : variants)
      out << "  " << row << ": " << yaml_quoted(agent) << "\n";
  }
  if (!external.empty()) {  // absent when empty: earlier table folders compare equal
    out << "external:\n";
    for (const auto& [row, about] : external)
      out << "  " << row << ":\n"
          << "    description: " << yaml_quoted(about.description) << "\n"
          << "    code: " << yaml_quoted(about.code) << "\n"
          << "    env: " << yaml_quoted(about.env) << "\n";
  }
  out << "hyperparameters:" << (hyperparameters.empty() ? " {}" : "") << "\n";
  for (const auto& [agent, values] : hyperparameters) {
    out << "  " << agent << ":" << (values.empty() ? " {}" : "") << "\n";
    write_options(out, values, "    ");
  }
  return out.str();
}

TableConfig TableConfig::parse_yaml(std::string_view text, std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  in.require_map(root, "table");
  in.reject_unknown_keys(
      root,
      {"agents", "workloads", "suite", "split", "hardware", "seeds", "budget", "jobs",
       "env_version", "env_options", "variants", "external", "hyperparameters"},
      "table");
  TableConfig c;
  auto names = [&](const char* key, std::vector<std::string>& out) {
    const YAML::Node n = in.optional(root, key, key);
    if (!n.IsDefined()) return;
    in.require_sequence(n, key);
    out.clear();
    for (std::size_t i = 0; i < n.size(); ++i)
      out.push_back(in.string(n[i], std::string(key) + "[" + std::to_string(i) + "]"));
  };
  names("agents", c.agents);
  const YAML::Node suite_node = in.optional(root, "suite", "suite");
  const YAML::Node split_node = in.optional(root, "split", "split");
  if (split_node.IsDefined() && !suite_node.IsDefined())
    in.fail(split_node, "split", "a split without a suite (add `suite: v1`)");
  if (suite_node.IsDefined()) {
    std::optional<Split> split = Split::test;
    if (split_node.IsDefined()) {
      const std::string name = in.string(split_node, "split");
      split = split_from_name(name);
      if (!split) in.fail(split_node, "split", "expected dev or test, got '" + name + "'");
    }
    c.use_suite(in.string(suite_node, "suite"), *split);
  }
  names("workloads", c.workloads);
  if (const YAML::Node n = in.optional(root, "hardware", "hardware"); n.IsDefined())
    c.model.hardware = in.string(n, "hardware");
  c.read_yaml(in, root);  // env_version and env_options
  if (c.env_version == ModelVersion::v2)
    in.fail(in.optional(root, "env_version", "env_version"), "env_version",
            "'v2': a table runs under v0 (pinned dynamics) or v1 (streaming)");
  if (const YAML::Node n = in.optional(root, "seeds", "seeds"); n.IsDefined())
    c.seeds = static_cast<std::uint64_t>(in.count(n, "seeds"));
  if (const YAML::Node n = in.optional(root, "budget", "budget"); n.IsDefined())
    c.budget = static_cast<std::uint64_t>(in.count(n, "budget"));
  if (const YAML::Node n = in.optional(root, "jobs", "jobs"); n.IsDefined())
    c.jobs = static_cast<int>(std::min<std::int64_t>(in.count(n, "jobs"), 1 << 20));
  auto options = [&](const YAML::Node& n, const std::string& field, OptionMap& out) {
    if (!n.IsDefined() || n.IsNull()) return;
    in.require_map(n, field);
    for (const auto& item : n) {
      const std::string name = in.key(item.first, field);
      out[name] = in.string(item.second, field + "." + name);
    }
  };
  if (const YAML::Node n = in.optional(root, "variants", "variants");
      n.IsDefined() && !n.IsNull()) {
    in.require_map(n, "variants");
    for (const auto& item : n) {
      const std::string row = in.key(item.first, "variants");
      c.variants[row] = in.string(item.second, "variants." + row);
    }
  }
  if (const YAML::Node n = in.optional(root, "external", "external");
      n.IsDefined() && !n.IsNull()) {
    in.require_map(n, "external");
    for (const auto& item : n) {
      const std::string row = in.key(item.first, "external");
      const std::string field = "external." + row;
      in.require_map(item.second, field);
      in.reject_unknown_keys(item.second, {"description", "code", "env"}, field);
      ExternalAgent& about = c.external[row];
      auto text = [&](const char* key) {
        const std::string name = field + "." + key;
        return in.string(in.require(item.second, key, name), name);
      };
      about.description = text("description");
      about.code = text("code");
      about.env = text("env");
    }
  }
  if (const YAML::Node n = in.optional(root, "hyperparameters", "hyperparameters");
      n.IsDefined() && !n.IsNull()) {
    in.require_map(n, "hyperparameters");
    for (const auto& item : n) {
      const std::string row = in.key(item.first, "hyperparameters");
      const std::string field = "hyperparameters." + row;
      options(item.second, field, c.hyperparameters[row]);
      // Names and allowed values are checked here, where the file's line is known; an unknown
      // row or agent is resolve()'s to report.
      const std::string& agent = c.agent_of(row);
      const agents::AgentInfo* info = agents::find_agent_or_null(agent);
      if (!info) continue;
      try {
        resolve_options("agent '" + agent + "'", info->hyperparameters, c.hyperparameters[row]);
      } catch (const InputError& e) {
        in.fail(item.second, field, e.what());
      }
    }
  }
  return c;
}

TableConfig TableConfig::load(const std::filesystem::path& path) {
  return parse_yaml(YamlInput::read_file(path), path.string());
}

}  // namespace memplace::experiments
