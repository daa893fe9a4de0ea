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

#include "agents/train_config.hpp"
#include "env/env_options.hpp"
#include "env/model/workload.hpp"

namespace memplace::experiments {

struct TableConfig {
  std::vector<std::string> agents = {"egrl", "ea", "sac", "ppo", "greedy-dp", "sa", "random"};
  std::vector<std::string> workloads = paper_workload_names();
  std::string hardware = "nnpi";
  std::uint64_t seeds = 5;         // seeds 0 .. seeds-1 for every (agent, workload)
  std::uint64_t budget = 20000;    // simulator evaluations of every run
  int jobs = 0;                    // runs at once, one thread each (0: one per core)
  std::string env_version = "v1";  // v1: streaming; v0: pinned dynamics (docs/envs/README.md)
  OptionMap env_options;           // of the single-step env, for every run
  std::map<std::string, OptionMap> hyperparameters;  // per agent; defaults filled in
  // Rows that run an agent under a name of their own, with their own hyperparameters (an
  // ablation: `egrl-unseeded: egrl` and hyperparameters.egrl-unseeded.seed_chromosomes false).
  // Keys are names listed in `agents`, values registered agents.
  std::map<std::string, std::string> variants;

  // Checks every field (agents and their hyperparameters against the registry, duplicates,
  // ranges) and fills in defaults. Throws InputError naming the field.
  void resolve();
  std::string to_yaml() const;
  // Every key is optional. InputError names the file, the line and the field.
  static TableConfig parse_yaml(std::string_view text, std::string_view origin);
  static TableConfig load(const std::filesystem::path& path);
  friend bool operator==(const TableConfig&, const TableConfig&) = default;

  // The registered agent a row of `agents` runs: its variant's agent, or the name itself.
  const std::string& agent_of(const std::string& row) const;

  // The run of one cell (`agent`: a row of `agents`): its agent, workload and seed, one thread,
  // checkpoints every tenth of the budget.
  agents::TrainConfig cell(const std::string& agent, const std::string& workload,
                           std::uint64_t seed) const;
};

}  // namespace memplace::experiments
