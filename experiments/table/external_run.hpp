// One run of an external agent (TableConfig::external; docs/leaderboard.md, "External agents"):
// the agent's own code plays an environment, and every mapping it completes — a single-step
// action, a sequential episode's final mapping — is handed here, scored under the table's scoring
// as memplace's trainer scores a proposal (agents/training/run_record.hpp), and counted against
// the budget. memplace.suite.run drives it from Python. The run folder it writes is a memplace
// run's (curve.csv, best_mapping.yaml, result.yaml) plus run.yaml, the external run's facts (the
// env it played, the libraries, how it ended). No checkpoint: an interrupted run is run again.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "agents/training/run_record.hpp"
#include "env/single_step_env.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_runner.hpp"

namespace memplace::experiments {

// An evaluation asked for after the budget was spent: the run ends there.
class BudgetExhausted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ExternalRun {
 public:
  // The cell (row, instance, seed) of the table folder `table` (its config.yaml; `row` one of its
  // external agents). What an interrupted run of the cell left is removed; InputError for a cell
  // the table does not have or one that has finished (result.yaml).
  ExternalRun(const std::filesystem::path& table, const std::string& row,
              const std::string& instance, std::uint64_t seed);

  const TableConfig& config() const { return config_; }
  const std::filesystem::path& folder() const { return folder_.dir; }
  std::uint64_t budget() const { return record_.budget; }
  std::uint64_t evaluations() const { return record_.evaluations; }
  double best_speedup() const { return record_.best_speedup; }
  std::size_t num_tensors() const;

  // BudgetExhausted once the budget is spent (call it before letting the agent start an
  // evaluation, so that it learns nothing from one past the budget).
  void require_budget_left() const;
  // Scores one mapping (a memory per tensor) under the table's scoring: one evaluation.
  // BudgetExhausted when the budget is spent; InputError for a mapping of the wrong length or
  // memory.
  agents::Outcome evaluate(std::span<const std::int64_t> mapping);
  // Ends the run: writes curve.csv, best_mapping.yaml, run.yaml (`facts`, and `status`: how it
  // ended) and last result.yaml, which marks the cell finished. Returns the cell's result.
  CellResult finish(const std::string& status, const std::map<std::string, std::string>& facts);

 private:
  double wall() const;

  TableConfig config_;
  std::string row_, instance_;
  std::uint64_t seed_ = 0;
  agents::RunFolder folder_;
  std::unique_ptr<SingleStepEnv> env_;
  agents::RunRecord record_;
  std::chrono::steady_clock::time_point start_;
};

// The external run's facts (run.yaml) as YAML, and back (InputError naming the file and field).
std::string external_run_yaml(const std::map<std::string, std::string>& facts);
std::map<std::string, std::string> parse_external_run_yaml(std::string_view text,
                                                           std::string_view origin);

}  // namespace memplace::experiments
