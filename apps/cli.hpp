// The `memplace` command line, as a function so tests can run it in-process.
#pragma once

#include <stdexcept>

#include <ostream>
#include <string>
#include <vector>

#include "base/parallel/process_group.hpp"

namespace memplace::cli {

// Exit codes of every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;        // a run failed, or a replayed result did not match
inline constexpr int kExitBadInput = 2;       // a bad file, option or argument (one-line message)
inline constexpr int kExitInterrupted = 130;  // stopped by SIGINT/SIGTERM after a checkpoint

// Thrown by a command that stopped on request; its message says how to continue.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `memplace <args...>` (args excludes the program name); never throws. In a job of several
// ranks, `table` and `train` share their work out over `ranks`; the other commands run on rank 0
// alone (the others return at once).
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            ProcessGroup& ranks = single_process());

}  // namespace memplace::cli
