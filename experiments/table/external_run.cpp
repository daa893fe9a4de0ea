#include "experiments/table/external_run.hpp"

#include <algorithm>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/yaml_input.hpp"

namespace memplace::experiments {

namespace fs = std::filesystem;

namespace {

TableConfig table_of(const fs::path& table) {
  TableConfig config = TableConfig::load(table / "config.yaml");
  config.resolve();
  return config;
}

}  // namespace

ExternalRun::ExternalRun(const fs::path& table, const std::string& row, const std::string& instance,
                         std::uint64_t seed)
    : config_(table_of(table)), row_(row), instance_(instance), seed_(seed) {
  const std::string where = (table / "config.yaml").string();
  if (!config_.is_external(row))
    throw InputError(where + ": '" + row + "' is not an external agent of the table");
  if (std::find(config_.workloads.begin(), config_.workloads.end(), instance) ==
      config_.workloads.end())
    throw InputError(where + ": '" + instance + "' is not a workload of the table");
  if (seed >= config_.seeds)
    throw InputError(where + ": seed " + std::to_string(seed) + " is not one of the table's 0.." +
                     std::to_string(config_.seeds - 1));
  folder_.dir = table / "runs" / cell_folder_name(row, instance, seed);
  if (fs::exists(folder_.dir / "result.yaml"))
    throw InputError(folder_.dir.string() + ": the run has finished (result.yaml)");
  try {
    fs::remove_all(folder_.dir);  // what an interrupted run left
    fs::create_directories(folder_.dir);
  } catch (const fs::filesystem_error& e) {
    throw InputError(folder_.dir.string() + ": cannot create the run folder (" +
                     e.code().message() + ")");
  }
  env_ = SingleStepEnv::make(config_.model_of(instance), config_.env_version, config_.scoring);
  record_.budget = config_.budget;
  start_ = std::chrono::steady_clock::now();
}

std::size_t ExternalRun::num_tensors() const {
  return env_->simulator().num_tensors();
}

double ExternalRun::wall() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ExternalRun::require_budget_left() const {
  if (record_.evaluations >= record_.budget)
    throw BudgetExhausted("the budget of " + std::to_string(record_.budget) +
                          " evaluations is spent");
}

agents::Outcome ExternalRun::evaluate(std::span<const std::int64_t> mapping) {
  require_budget_left();
  if (mapping.size() != num_tensors())
    throw InputError("a mapping of " + std::to_string(mapping.size()) + " memories; " + instance_ +
                     " has " + std::to_string(num_tensors()) + " tensors");
  Mapping proposal(mapping.size());
  const std::size_t memories = env_->simulator().num_memories();
  for (std::size_t t = 0; t < mapping.size(); ++t) {
    if (mapping[t] < 0 || static_cast<std::size_t>(mapping[t]) >= memories)
      throw InputError("mapping[" + std::to_string(t) + "] = " + std::to_string(mapping[t]) +
                       ": not a memory of " + instance_ + "'s hardware (0.." +
                       std::to_string(memories - 1) + ")");
    proposal[t] = static_cast<MemoryIndex>(mapping[t]);
  }
  const agents::Outcome outcome = agents::score_proposal(*env_, proposal);
  record_.record(outcome, wall());
  return outcome;
}

CellResult ExternalRun::finish(const std::string& status,
                               const std::map<std::string, std::string>& facts) {
  const double seconds = wall();
  record_.close_row(seconds);
  record_.write(folder_, env_->simulator());
  std::map<std::string, std::string> all = facts;
  all["status"] = status;
  write_file_atomically(folder_.dir / "run.yaml", external_run_yaml(all));
  CellResult result = cell_result(row_, instance_, seed_, record_.curve);
  result.agent_status = status;
  write_file_atomically(folder_.dir / "result.yaml", result_yaml(result));
  return result;
}

std::string external_run_yaml(const std::map<std::string, std::string>& facts) {
  std::ostringstream out;
  out << "# memplace: an external agent's run (docs/leaderboard.md, \"The run folder\")\n";
  for (const auto& [key, value] : facts)
    out << key << ": " << yaml_quoted(value) << "\n";
  return out.str();
}

std::map<std::string, std::string> parse_external_run_yaml(std::string_view text,
                                                           std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  in.require_map(in.root(), "run");
  std::map<std::string, std::string> facts;
  for (const auto& item : in.root()) {
    const std::string key = in.key(item.first, "run");
    facts[key] = in.string(item.second, key);
  }
  return facts;
}

}  // namespace memplace::experiments
