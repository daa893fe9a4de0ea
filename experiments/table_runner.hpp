// Runs a baseline table: every (agent, workload, seed) cell of a TableConfig is one training run
// (agents::Trainer, one thread), `jobs` of them at a time. The table folder holds
//
//   config.yaml                     the table's config (a rerun must use the same one)
//   runs/<agent>-<workload>-s<seed>/  each cell's run folder (docs/agents.md), plus result.yaml
//                                   once the run has finished
//
// and is resumable: a rerun reads the finished cells, resumes the interrupted ones from their
// checkpoint (to exactly the result of an uninterrupted run) and starts the rest. Each cell's
// result depends only on its config, so the table does not depend on `jobs` or on the order.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agents/trainer.hpp"
#include "experiments/table_config.hpp"

namespace memplace::experiments {

struct CellResult {
  std::string agent;  // the row of the table's agents (a variant's name for a variant)
  std::string workload;
  std::uint64_t seed = 0;
  std::uint64_t evaluations = 0;  // spent (greedy-dp may stop before the budget)
  bool found_valid = false;
  double best_speedup = 0;  // of the best valid mapping (0 if none)
  // The first curve row at which the best speedup reached 95 % of the final one (0 if none).
  std::uint64_t evaluations_to_95 = 0;
  double wall_seconds = 0;  // the only field that differs between reruns
  // The agent's status line at the end ("generation 512, ..., migrants elite 1/515"); empty for
  // results written before it was kept.
  std::string agent_status;
};

// A finished run's result from its row in the table, its run folder's config and curve.
CellResult cell_result(const std::string& row, const agents::TrainConfig& config,
                       const std::vector<agents::CurveRow>& curve);
// result.yaml: written atomically when a cell finishes; read back by a rerun.
std::string result_yaml(const CellResult& result);
CellResult parse_result_yaml(std::string_view text, std::string_view origin);

struct TableProgress {
  std::size_t cells_done = 0;  // finished, including those read from an earlier run
  std::size_t cells_total = 0;
  std::size_t cells_running = 0;
  double wall_seconds = 0;
  // Of the runs this call runs: the share of their expected work done (the learners' runs weigh
  // more; for an ETA).
  double work_done = 0;
  std::string last_finished;  // "egrl on bert-base, seed 3: 0.9812x"
};

struct TableOutcome {
  std::vector<CellResult> cells;  // every finished cell, in table order (agent, workload, seed)
  std::size_t cells_run = 0;      // of them, run (or resumed) now
  bool interrupted = false;       // stopped on request; unfinished cells kept their checkpoints
};

class TableRunner {
 public:
  // Opens the table folder `out`, creating it with config.yaml, or checking that an existing
  // one holds the same config (InputError naming the first difference otherwise).
  TableRunner(TableConfig config, std::filesystem::path out);

  // Runs every missing cell. `progress` is called (from one thread at a time) whenever a cell
  // finishes; `stop` is polled by every running cell after each batch: the cells checkpoint and
  // the call returns with `interrupted`.
  TableOutcome run(const std::function<void(const TableProgress&)>& progress = {},
                   const std::function<bool()>& stop = {});

  const TableConfig& config() const { return config_; }
  const std::filesystem::path& folder() const { return out_; }
  // A cell's run folder.
  std::filesystem::path cell_folder(const std::string& agent, const std::string& workload,
                                    std::uint64_t seed) const;

 private:
  TableConfig config_;
  std::filesystem::path out_;
};

}  // namespace memplace::experiments
