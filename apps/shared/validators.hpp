#pragma once
// Option checks the commands share, with messages a user can act on (CLI11's own number checks
// let NaN through and print their range's limits in full).
#include <CLI/CLI.hpp>

namespace memplace::cli {

// A finite number of seconds > 0 (a time limit).
extern const CLI::Validator kPositiveSeconds;
// A name given explicitly (a file, a folder, a suite, an env) must not be empty: "" would
// otherwise mean the current folder, or the default, without a word.
extern const CLI::Validator kNonEmptyName;

}  // namespace memplace::cli
