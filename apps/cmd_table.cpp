// memplace table: the baseline table, agents x workloads x seeds at one budget
// (experiments/table/table_runner.hpp, docs/table.md). Resumable: a rerun completes only the
// missing runs; one that adds agents, workloads or seeds runs only the new cells.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/stop_signals.hpp"
#include "apps/shared/validators.hpp"
#include "base/number_format.hpp"
#include "experiments/suite/table_folder_report.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_runner.hpp"

namespace memplace::cli {
namespace {

struct TableCommandOptions {
  std::string config_file;
  std::string out = "runs/table";
  std::vector<std::string> agents;
  std::vector<std::string> workloads;
  std::string suite;
  std::string split;
  std::uint64_t seeds = 0;
  std::uint64_t budget = 0;
  int jobs = -1;
  std::string env_version;
  std::string if_config_differs = "refuse";
  bool quiet = false;
};

void run_table(const TableCommandOptions& o, Streams io) {
  experiments::TableConfig config;
  // The ranks' first agreement (apps/cli.cpp): each has read its arguments.
  run_agreed(io.ranks, OnRanks::every, [&] {
    if (!o.config_file.empty()) config = experiments::TableConfig::load(o.config_file);
    // Options on the command line override the config file.
    if (!o.agents.empty()) config.agents = o.agents;
    if (!o.suite.empty() || !o.split.empty()) {
      if (o.suite.empty() && config.suite.empty())
        throw InputError("--split: a split without a suite (add --suite v1)");
      config.use_suite(o.suite.empty() ? config.suite : o.suite,
                       o.split.empty() ? config.split : *split_from_name(o.split));
    }
    if (!o.workloads.empty()) config.workloads = o.workloads;
    if (o.seeds > 0) config.seeds = o.seeds;
    if (o.budget > 0) config.budget = o.budget;
    if (o.jobs >= 0) config.jobs = o.jobs;
    if (!o.env_version.empty()) config.set_env_version(parse_version(o.env_version));
  });
  experiments::TableRunner runner(std::move(config), o.out, io.ranks,
                                  o.if_config_differs == "move-aside"
                                      ? experiments::ConfigChange::move_aside
                                      : experiments::ConfigChange::refuse);
  if (!runner.moved_aside_to().empty())
    io.err << "table: " << runner.folder().string()
           << " held a table with another config (a default or an option changed); moved it to "
           << runner.moved_aside_to().string() << " and started afresh\n";
  if (runner.extension() && io.ranks.leader())
    io.err << "table: " << runner.folder().string()
           << ": extending the table: " << experiments::describe_extension(*runner.extension())
           << "\n";
  const experiments::TableConfig& c = runner.config();
  const std::size_t total = c.agents.size() * c.workloads.size() * c.seeds;
  // Rank 0 speaks for the job.
  const bool quiet = o.quiet || !io.ranks.leader();
  if (!quiet)
    io.err << "table: " << c.agents.size() << " agents x " << c.workloads.size() << " workloads x "
           << c.seeds << " seeds = " << total << " runs of " << c.budget << " evaluations, into "
           << runner.folder().string()
           << (io.ranks.size() > 1
                   ? ", shared out over " + std::to_string(io.ranks.size()) + " ranks"
                   : std::string())
           << "\n";

  const StopOnSignals signals;
  const experiments::TableOutcome outcome = runner.run(
      [&](const experiments::TableProgress& p) {
        if (quiet) return;
        // The time left is rank 0's: its share is about every rank's.
        io.err << "[" << p.cells_done << "/" << p.cells_total << "] " << p.last_finished << "  (";
        if (p.ranks > 1)
          io.err << "rank 0 of " << p.ranks << ": " << p.share_done << " of its " << p.share_total
                 << " runs, ";
        io.err << format_duration(p.wall_seconds) << " elapsed"
               << (p.share_done < p.share_total
                       ? ", about " + format_duration(p.seconds_left) + " left"
                       : "")
               << ")\n";
      },
      [] { return stop_requested(); });

  const std::size_t missing = total - outcome.cells.size();
  if (!io.ranks.leader()) {
    if (outcome.interrupted) throw Interrupted(std::to_string(missing) + " runs not finished");
    return;
  }
  if (outcome.external_missing > 0) {
    std::string rows;
    for (const auto& [row, about] : c.external)
      rows += (rows.empty() ? "" : ", ") + row;
    io.err << "table: " << outcome.external_missing << " runs of external agents (" << rows
           << ") are not in " << runner.folder().string()
           << " yet: their own code makes them (memplace.suite.run; docs/python.md, \"Suite "
              "runs\"); the report covers the finished runs\n";
  }
  const experiments::TableFolderReport report =
      experiments::write_table_folder_report(runner, outcome.cells, missing);
  io.out << report.markdown << "\n"
         << "table folder: " << runner.folder().string() << " (" << report.files << ")\n";
  if (outcome.interrupted)
    throw Interrupted(std::to_string(missing) +
                      " runs not finished; rerun the same command to complete them");
}

}  // namespace

void add_table_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "table",
      "Reproduce the baseline table: every agent x workload x seed at one budget, resumable");
  auto o = std::make_shared<TableCommandOptions>();
  cmd->add_option("config", o->config_file,
                  "A table config YAML (default: EGRL's comparison; docs/table.md)")
      ->check(kNonEmptyName);
  cmd->add_option("--out", o->out,
                  "The table folder; a rerun completes its missing runs, and one with more (or "
                  "fewer) agents, workloads or seeds extends it")
      ->capture_default_str()
      ->check(kNonEmptyName);
  add_name_list(*cmd, "--agents", o->agents, "Override the config's agents (comma-separated)");
  add_name_list(*cmd, "--workloads", o->workloads,
                "Override the config's workloads (comma-separated)");
  cmd->add_option("--suite", o->suite,
                  "Run a benchmark suite's instances (a shipped suite, v1, or a suite file) and "
                  "add the aggregate statistics (docs/table.md#suite-tables)")
      ->check(kNonEmptyName);
  cmd->add_option("--split", o->split, "The suite's split to run: test (the default) or dev")
      ->check(CLI::IsMember({"dev", "test"}));
  cmd->add_option("--seeds", o->seeds, "Override the number of seeds (0 .. N-1)")
      ->transform(whole_number(1, 1000));
  cmd->add_option("--budget", o->budget, "Override the evaluations per run")
      ->transform(whole_number(1, std::uint64_t{1} << 40));
  cmd->add_option("--jobs", o->jobs, "Runs at once, one thread each (0: one per core)")
      ->transform(whole_number(0, 1024));
  cmd->add_option("--env-version", o->env_version,
                  "Override the config's env version: v1 (streaming, the default) or v0 (pinned)")
      ->check(CLI::IsMember({"v0", "v1"}));
  cmd->add_option("--if-config-differs", o->if_config_differs,
                  "When --out holds a table whose finished runs another config would change "
                  "(budget, hardware, hyperparameters, ...): refuse (the default), or move-aside "
                  "(to <out>.previous-<n>, then start afresh)")
      ->check(CLI::IsMember({"refuse", "move-aside"}));
  cmd->add_flag("-q,--quiet", o->quiet, "No progress lines");
  cmd->callback([io, o] { run_table(*o, io); });
}

}  // namespace memplace::cli
