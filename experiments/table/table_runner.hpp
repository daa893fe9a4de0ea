// Runs a baseline table: every (agent, workload, seed) cell of a TableConfig is one training run
// (agents::Trainer, one thread), `jobs` of them at a time. The table folder holds
//
//   config.yaml                     the table's config (a rerun may only add or drop cells)
//   runs/<agent>-<workload>-s<seed>/  each cell's run folder (docs/agents.md), plus result.yaml
//                                   once the run has finished
//
// and is resumable: a rerun reads the finished cells, resumes the interrupted ones from their
// checkpoint (to exactly the result of an uninterrupted run) and starts the rest. Each cell's
// result depends only on its config, so the table does not depend on `jobs` or on the order.
//
// In a job of several ranks (base/parallel/process_group.hpp, docs/scale-out.md) every rank opens
// the same folder (shared, as on every cluster) and runs a fixed share of the missing cells
// (share_out). Nothing is exchanged while the runs go on; at the end every rank learns every
// result, and rank 0 writes the report.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "agents/training/trainer.hpp"
#include "base/parallel/process_group.hpp"
#include "experiments/table/table_config.hpp"

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

// The ranks' shares of the runs: `costs` (expected, longest first) are dealt out one by one to
// the rank with the least expected work so far, the lowest of equal ranks (longest processing
// time first). Every rank computes the same shares from the same costs, so no coordinator is
// needed; returns each run's rank.
std::vector<int> share_out(std::span<const double> costs, int ranks);

// The name of a run's folder under the table folder's runs/: "<agent>-<label>-s<seed>".
std::string cell_folder_name(const std::string& agent, const std::string& workload,
                             std::uint64_t seed);

// A finished run's result from its cell (row, workload label, seed) and its curve.
CellResult cell_result(const std::string& row, const std::string& workload, std::uint64_t seed,
                       const std::vector<agents::CurveRow>& curve);
// result.yaml: written atomically when a cell finishes; read back by a rerun.
std::string result_yaml(const CellResult& result);
CellResult parse_result_yaml(std::string_view text, std::string_view origin);

struct TableProgress {
  std::size_t cells_done = 0;  // finished, including those read from an earlier run
  std::size_t cells_total = 0;
  std::size_t cells_running = 0;
  // With several ranks (progress comes from rank 0): the cells of rank 0's share, and of them
  // those it has finished; cells_done then counts the finished runs of every rank.
  int ranks = 1;
  std::size_t share_total = 0;
  std::size_t share_done = 0;
  double wall_seconds = 0;
  // Of the runs this call runs (this rank's share): the seconds until the last one ends, from
  // each run's expected cost scaled by what the finished runs took
  // (experiments/table/remaining_time.hpp).
  double seconds_left = 0;
  std::string last_finished;  // "egrl on bert-base, seed 3: 0.9812x"
};

struct TableOutcome {
  std::vector<CellResult> cells;  // every finished cell, in table order (agent, workload, seed)
  std::size_t cells_run = 0;      // of them, run (or resumed) now (by any rank)
  // Unfinished cells of external agents (TableConfig::external), which their own code makes.
  std::size_t external_missing = 0;
  bool interrupted = false;  // stopped on request (on any rank); unfinished cells kept their
                             // checkpoints
};

// What opening a table folder that holds a config whose finished runs would change meaning
// (another budget, hardware, hyperparameters of a row it has, ...) does: refuse (InputError), or
// move the old folder aside to a free sibling `<out>.previous-<n>` and start afresh (what `make
// run` asks for, so that a rerun after a default changed needs no hand work). A config that only
// adds or drops agents, workloads or seeds extends the folder instead (TableExtension).
enum class ConfigChange { refuse, move_aside };

// A table folder opened with a config that adds or drops cells only: its config.yaml becomes the
// new config, the new cells run, the finished ones are kept, and the dropped ones' run folders
// stay in runs/ (out of the report).
struct TableExtension {
  TableChange change;
  std::size_t new_runs = 0;       // cells the folder's config did not have, to run now
  std::size_t finished_kept = 0;  // cells of the new config with a finished run in the folder
  std::size_t dropped_cells = 0;  // cells of the folder's config the new one leaves out
};

// "agents +sa, seeds 3 -> 4 (12 new runs; 36 finished runs kept)".
std::string describe_extension(const TableExtension& extension);

class TableRunner {
 public:
  // Opens the table folder `out`, creating it with config.yaml, or checking that an existing
  // one holds the same config, or one the new config extends (then rewriting config.yaml), or
  // else doing as `on_change` says. Every rank of `ranks` must pass the same config and folder,
  // and be able to write there (InputError on every rank otherwise).
  TableRunner(TableConfig config, std::filesystem::path out, ProcessGroup& ranks = single_process(),
              ConfigChange on_change = ConfigChange::refuse);

  // Runs every missing cell (this rank's share of them) but those of external agents. `progress` is
  // called on rank 0 (from one thread at a time) whenever one of its cells finishes; `stop` is
  // polled by every running cell after each batch: the cells checkpoint and the call returns with
  // `interrupted`. A failure on any rank throws on every rank once all have stopped.
  TableOutcome run(const std::function<void(const TableProgress&)>& progress = {},
                   const std::function<bool()>& stop = {});

  // The finished cells, as run() returns them, running nothing (the report of a table whose
  // runs an external agent's code has just made).
  TableOutcome finished() const;

  const TableConfig& config() const { return config_; }
  const std::filesystem::path& folder() const { return out_; }
  // Where the folder's earlier table went (ConfigChange::move_aside, rank 0); empty if nowhere.
  const std::filesystem::path& moved_aside_to() const { return moved_aside_to_; }
  // How the folder's earlier config was extended (every rank); nullopt if it was not.
  const std::optional<TableExtension>& extension() const { return extension_; }
  // A cell's run folder.
  std::filesystem::path cell_folder(const std::string& agent, const std::string& workload,
                                    std::uint64_t seed) const;

 private:
  TableConfig config_;
  std::filesystem::path out_;
  ProcessGroup* ranks_;
  std::filesystem::path moved_aside_to_;
  std::optional<TableExtension> extension_;
};

}  // namespace memplace::experiments
