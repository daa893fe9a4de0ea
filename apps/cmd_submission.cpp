// memplace submission check|pack|leaderboard: results that others submit and anyone re-checks
// (experiments/leaderboard/submission.hpp, docs/leaderboard.md).
#include <filesystem>
#include <stdexcept>

#include "apps/commands.hpp"
#include "apps/shared/validators.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "experiments/leaderboard/submission.hpp"

namespace memplace::cli {
namespace {

namespace fs = std::filesystem;

// Prints what did not reproduce; true when everything did.
bool report(const experiments::SubmissionCheck& check, std::ostream& out) {
  out << check.folder.string() << ": " << check.submission.name << " — " << check.runs
      << " runs of " << check.config.agents.size() << " agents on " << check.config.workloads.size()
      << " instances of suite " << check.config.suite << " (" << split_name(check.config.split)
      << ") re-scored: ";
  if (check.reproduced()) {
    out << "every claim reproduces\n";
    return true;
  }
  out << check.discrepancies.size() << " claim" << (check.discrepancies.size() == 1 ? "" : "s")
      << " DO NOT REPRODUCE\n";
  for (const experiments::Discrepancy& d : check.discrepancies)
    out << "  " << d.where << ": " << d.what << "\n";
  return false;
}

std::vector<experiments::SubmissionCheck> check_all(const std::vector<std::string>& folders,
                                                    std::ostream& log) {
  std::vector<experiments::SubmissionCheck> checks;
  bool all = true;
  for (const std::string& folder : folders) {
    checks.push_back(experiments::check_submission(folder));
    all = report(checks.back(), log) && all;
  }
  if (!all) throw std::runtime_error("a submission's claims do not reproduce (above)");
  return checks;
}

}  // namespace

void add_submission_command(CLI::App& app, Streams io) {
  auto* cmd =
      app.add_subcommand("submission",
                         "Submissions of suite-table results: re-check them by replay, pack one, "
                         "print the leaderboard (docs/leaderboard.md)");
  cmd->require_subcommand(1);

  auto folders = std::make_shared<std::vector<std::string>>();
  auto* check = cmd->add_subcommand(
      "check",
      "Re-score every run's best mapping and recompute the report; exit 1 if a claim "
      "does not reproduce, 2 if a folder is malformed");
  check->add_option("folders", *folders, "Submission folders")->required();
  check->callback([io, folders] {
    for (const experiments::SubmissionCheck& c : check_all(*folders, io.out))
      for (const experiments::AgentAggregate& a : c.aggregate.agents)
        io.out << "  " << a.agent << ": IQM " << format_fixed(100 * a.iqm, 1) << " % ["
               << format_fixed(100 * a.iqm_interval.low, 1) << ", "
               << format_fixed(100 * a.iqm_interval.high, 1) << "]\n";
  });

  auto board_folders = std::make_shared<std::vector<std::string>>();
  auto* board = cmd->add_subcommand(
      "leaderboard",
      "Check submissions and print their leaderboard as markdown (exit 1 if any "
      "claim does not reproduce)");
  board->add_option("folders", *board_folders, "Submission folders")->required();
  board->callback([io, board_folders] {
    // The verdicts go to stderr: stdout is the leaderboard alone.
    const auto checks = check_all(*board_folders, io.err);
    io.out << experiments::leaderboard_markdown(checks);
  });

  struct PackOptions {
    std::string table;
    std::string out;
    experiments::Submission submission;
  };
  auto o = std::make_shared<PackOptions>();
  auto* pack = cmd->add_subcommand(
      "pack",
      "Make a submission folder from a finished suite table (its runs' results, best "
      "mappings and curves, no checkpoints)");
  pack->add_option("table", o->table, "A finished suite table folder (memplace table --suite)")
      ->required();
  pack->add_option("--out", o->out, "The submission folder to write (must not exist)")
      ->required()
      ->check(kNonEmptyName);
  pack->add_option("--name", o->submission.name, "The submission's name")->required();
  pack->add_option("--authors", o->submission.authors, "Who made it")->required();
  pack->add_option("--code", o->submission.code,
                   "Where the agents' code is, with its version (a URL and a commit)")
      ->required();
  pack->add_option("--memplace", o->submission.memplace,
                   "The memplace commit the table ran on (git rev-parse HEAD)")
      ->required();
  pack->add_option("--date", o->submission.date, "YYYY-MM-DD (default: today)");
  pack->callback([io, o] {
    experiments::pack_submission(o->table, o->out, o->submission);
    const experiments::SubmissionCheck check = experiments::check_submission(o->out);
    if (!report(check, io.out))
      throw std::runtime_error(o->out + ": the packed table's claims do not reproduce");
    io.out << "wrote " << o->out << "; describe each agent in its submission.yaml\n";
  });
}

}  // namespace memplace::cli
