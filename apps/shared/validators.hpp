#pragma once
// Option checks the commands share, with messages a user can act on (CLI11's own number checks
// let NaN through and print their range's limits in full).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace memplace::cli {

// A finite number of seconds > 0 (a time limit).
extern const CLI::Validator kPositiveSeconds;
// A fraction in [0, 1) (a relative gap).
extern const CLI::Validator kFraction;
// A whole number from `lowest` to `highest`, written in decimal: use with ->transform(), which
// hands CLI11 the number without its leading zeros. CLI11's own reading takes "010" for octal 8
// and "0x10" for 16, makes "-1" 2^64 - 1 in an unsigned option, and its range check calls "1e3"
// or "abc" out of range.
CLI::Validator whole_number(std::uint64_t lowest,
                            std::uint64_t highest = std::numeric_limits<std::uint64_t>::max());
// A name given explicitly (a file, a folder, a suite, an env) must not be empty: "" would
// otherwise mean the current folder, or the default, without a word.
extern const CLI::Validator kNonEmptyName;

// A comma-separated list of names ("--agents sa,ea"; the option may also be given again). Every
// element must be a name: CLI11's own delimiter drops empty ones ("sa,,ea" ran sa and ea) and,
// given commas alone, took the next argument ("--workloads") for the list. The names start as
// the list's default, shown in the help.
CLI::Option* add_name_list(CLI::App& cmd, const std::string& flag, std::vector<std::string>& names,
                           const std::string& description);
// The names of one such list, in order; an empty one is refused (CLI::ValidationError naming
// `flag` and the list).
std::vector<std::string> split_name_list(const std::string& list, const std::string& flag);

}  // namespace memplace::cli
