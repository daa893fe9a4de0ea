// Options by name, as they come from YAML or the command line ("reward" -> "log-speedup"): one
// declaration per option (name, default, allowed values, help), checked in one place, as EnvPool
// declares its config. Environments, agents' hyperparameters and the model spec
// (model/model_spec.hpp) declare theirs this way; typed values are made from the resolved map
// at the boundary, and nothing past it passes strings around.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace memplace {

using OptionMap = std::map<std::string, std::string, std::less<>>;

struct OptionSpec {
  std::string name;
  std::string default_value;
  std::vector<std::string> choices;  // empty: any non-empty value (a name or a path)
  std::string help;
};

// Checks `given` against `specs` and fills in defaults. Throws InputError naming `what` (the
// environment, the agent), the option and the allowed values for an unknown option or a bad value.
OptionMap resolve_options(std::string_view what, std::span<const OptionSpec> specs,
                          const OptionMap& given);

// Parses "name=value" (command line) into `options`; throws InputError naming `what` (the
// command-line option that gave it, e.g. "--param") on a missing '=' or name.
void parse_option_assignment(std::string_view text, OptionMap& options, std::string_view what);

// What is wrong with setting option `name` to `value`, if anything (unknown option, value not
// allowed), as one sentence naming the allowed names or values.
std::optional<std::string> option_problem(std::span<const OptionSpec> specs,
                                          const std::string& name, const std::string& value);

// Reads a YAML map of options ("reward: log-speedup"), checked against `specs`; InputError names
// the file, the line and the option.
OptionMap parse_options_yaml(std::string_view text, std::string_view origin,
                             std::span<const OptionSpec> specs);

// "a, b, c": the names of `specs`, for messages.
std::string option_names(std::span<const OptionSpec> specs);

}  // namespace memplace
