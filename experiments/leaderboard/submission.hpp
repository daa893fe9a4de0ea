// Submissions (docs/leaderboard.md): the results of a suite table reduced to what lets anyone
// re-check them, with a description of the agents — CompilerGym's leaderboard, validated by
// replay. A submission folder holds
//
//   submission.yaml   name, authors, code (where the agents' code is, with its version), memplace
//                     (the memplace commit the table ran on), date, and agents: one line per row
//                     of the table saying what the agent is
//   config.yaml       the suite table's config (experiments/table/table_config.hpp)
//   suite.csv         the report it claims (experiments/suite/suite_scores.hpp)
//   runs/<agent>-<instance>-s<seed>/  every run's result.yaml, best_mapping.yaml and curve.csv
//
// `memplace submission check` re-scores every best mapping on its instance, compares it with the
// run's claimed best speedup and curve, and recomputes suite.csv from the re-scored runs.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/suite/suite_scores.hpp"
#include "experiments/table/table_config.hpp"

namespace memplace::experiments {

struct Submission {
  std::string name;
  std::string authors;
  std::string code;      // a URL and a commit, or "memplace <commit>" for memplace's own agents
  std::string memplace;  // the memplace commit the table ran on
  std::string date;      // YYYY-MM-DD
  std::map<std::string, std::string> agents;  // row -> what it is

  std::string to_yaml() const;
  // Every field is required, and agents must describe exactly `rows` (when given). InputError
  // names the file, line and field.
  static Submission parse_yaml(std::string_view text, std::string_view origin);
};

// A claim that did not reproduce: the run (or "suite.csv") and what differs.
struct Discrepancy {
  std::string where;
  std::string what;
};

struct SubmissionCheck {
  std::filesystem::path folder;
  Submission submission;
  TableConfig config;
  std::size_t runs = 0;                    // re-scored
  std::vector<Discrepancy> discrepancies;  // empty: every claim reproduced
  SuiteAggregate aggregate;                // of the re-scored runs
  bool reproduced() const { return discrepancies.empty(); }
};

// Re-checks a submission folder. InputError (naming the file) for a malformed folder: a missing
// or unreadable file, a config that is not a complete suite table, a run folder of another run,
// a mapping that does not parse for its instance. Claims that parse but do not reproduce are
// listed in `discrepancies`.
SubmissionCheck check_submission(const std::filesystem::path& folder);

// Writes a submission folder `out` from a finished suite table folder: the files above, no
// checkpoints. `submission.agents` may be empty: every row is then described by its agent's
// registry summary. InputError if the table is not a complete suite table or `out` exists.
void pack_submission(const std::filesystem::path& table, const std::filesystem::path& out,
                     Submission submission);

// The leaderboard's table: one row per agent of every checked submission, grouped by suite,
// split, budget and seeds, best IQM first.
std::string leaderboard_markdown(const std::vector<SubmissionCheck>& checks);

}  // namespace memplace::experiments
