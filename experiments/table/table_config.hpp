// What a baseline table is: agents x workloads x seeds at one budget of simulator evaluations
// (docs/table.md). `memplace table CONFIG` reads it from YAML; with no file, the defaults below
// reproduce the comparison of the EGRL paper.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "agents/registry.hpp"
#include "agents/training/train_config.hpp"
#include "base/options.hpp"
#include "model/inputs/suite.hpp"
#include "model/inputs/workload.hpp"

namespace memplace::experiments {

// A workload entry of a table is a shipped workload name, a workload file, or a suite instance
// "workload@hardware" (docs/suite.md), which runs on its own hardware. Its label names its rows,
// run folders and figures: the file's stem for a file, the entry itself otherwise (suite names
// hold dots: "qwen2.5-0.5b-decode-b1-kv512@tpu-v4i").
std::string workload_label(const std::string& entry);

// An agent memplace does not have (docs/leaderboard.md, "External agents"): a row of a table's
// `agents` whose runs its own code makes — memplace.suite.run in Python (docs/python.md, "Suite
// runs") — scored and recorded by memplace as every run is (experiments/table/external_run.hpp).
// `memplace table` reads its finished runs and never runs it.
struct ExternalAgent {
  std::string description;  // what it is, one line (the leaderboard's "what it is")
  std::string code;         // where its code is, with its version
  std::string env;          // the env kind its runs play: single-step or sequential
  friend bool operator==(const ExternalAgent&, const ExternalAgent&) = default;
};

// The env kinds an external agent's runs may play: their final mappings are scored as the
// table's runs are (a table is under cost model v0 or v1; the malloc env is v2's).
inline constexpr const char* kExternalEnvKinds[] = {"single-step", "sequential"};

// Every run's model and scoring (ScoringEnv: hardware, env version, env options) are the table's;
// the model's workload is each of `workloads` in turn.
struct TableConfig : agents::ScoringEnv {
  TableConfig() { set_env_version(ModelVersion::v1); }  // v1: streaming (docs/envs/README.md)

  std::vector<std::string> agents = agents::default_table_agents();
  std::vector<std::string> workloads = paper_workload_names();
  // A suite table (docs/table.md#suite-tables): `workloads` are instances of this benchmark suite
  // (a shipped name or a suite file), by default every instance of `split`, and the report adds
  // the aggregate statistics over instances x seeds. Empty: an ordinary table.
  std::string suite;
  Split split = Split::test;
  std::uint64_t seeds = 5;       // seeds 0 .. seeds-1 for every (agent, workload)
  std::uint64_t budget = 20000;  // simulator evaluations of every run
  int jobs = 0;                  // runs at once, one thread each (0: one per core)
  std::map<std::string, OptionMap> hyperparameters;  // per agent; defaults filled in
  // Rows that run an agent under a name of their own, with their own hyperparameters (an
  // ablation: `egrl-unseeded: egrl` and hyperparameters.egrl-unseeded.seed_chromosomes false).
  // Keys are names listed in `agents`, values registered agents.
  std::map<std::string, std::string> variants;
  // Rows listed in `agents` that are agents of their own code (above); their hyperparameters
  // (in `hyperparameters`) are free-form: memplace records them and checks nothing.
  std::map<std::string, ExternalAgent> external;
  bool is_external(const std::string& row) const { return external.contains(row); }

  // Checks every field (agents and their hyperparameters against the registry, duplicates,
  // ranges) and fills in defaults. Throws InputError naming the field.
  void resolve();
  std::string to_yaml() const;
  // Every key is optional. InputError names the file, the line and the field.
  static TableConfig parse_yaml(std::string_view text, std::string_view origin);
  static TableConfig load(const std::filesystem::path& path);
  friend bool operator==(const TableConfig&, const TableConfig&) = default;

  // Makes this a table of the suite's `split`: every instance of it, in the suite's order.
  void use_suite(std::string name, Split split);

  // The model a workload entry's runs build: the table's, with the entry's workload, and the
  // instance's hardware for a suite instance.
  ModelSpec model_of(const std::string& entry) const;

  // The registered agent a row of `agents` runs: its variant's agent, or the name itself (an
  // external row's own name).
  const std::string& agent_of(const std::string& row) const;

  // The run of one cell (`agent`: a row of `agents`, not an external one): its agent, workload
  // and seed, one thread, checkpoints every tenth of the budget.
  agents::TrainConfig cell(const std::string& agent, const std::string& workload,
                           std::uint64_t seed) const;
};

// How a new config differs from the one a table folder was made with
// (docs/table.md#extending-a-table). The rows of `agents`, the workloads and the seeds only add
// or drop cells; every other field, and the agent and hyperparameters of a row both configs
// have, is part of what a finished run means.
struct TableChange {
  // The fields that would change finished runs' meaning, as "budget: 400 -> 500"; any of them
  // means the folder cannot be extended.
  std::vector<std::string> meaning;
  std::vector<std::string> agents_added, agents_dropped;
  std::vector<std::string> workloads_added, workloads_dropped;  // as labels
  std::uint64_t seeds_before = 0, seeds_after = 0;
  bool reordered = false;  // the same rows or workloads, listed in another order

  bool changes_meaning() const { return !meaning.empty(); }
};

// Both configs resolved.
TableChange compare_tables(const TableConfig& saved, const TableConfig& next);

// "agents +sa -ppo, seeds 3 -> 4": the cells a change adds and drops, for the user.
std::string describe_cells_change(const TableChange& change);

}  // namespace memplace::experiments
