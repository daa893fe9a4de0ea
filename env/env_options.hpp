// Environment options by name: one declaration per option (name, default, allowed values, help),
// validated in one place, as EnvPool declares its config.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "env/env.hpp"

namespace memplace {

struct OptionSpec {
  std::string name;
  std::string default_value;
  std::vector<std::string> choices;  // empty: any non-empty value (a name or a path)
  std::string help;
};

// The options every placement environment has: workload, hardware, memory_time.
std::vector<OptionSpec> common_option_specs();
// The options the -v1 environments add: dynamics (streaming by default) and lookahead.
std::vector<OptionSpec> streaming_option_specs();
// A -v0 family's options followed by the streaming ones: the option_specs of its -v1 family.
template <std::vector<OptionSpec> (*V0Specs)()>
std::vector<OptionSpec> with_streaming_options() {
  std::vector<OptionSpec> specs = V0Specs();
  for (OptionSpec& s : streaming_option_specs())
    specs.push_back(std::move(s));
  return specs;
}

// Checks `given` against `specs` and fills in defaults. Throws InputError naming the environment,
// the option and the allowed values for an unknown option or a bad value.
OptionMap resolve_options(std::string_view env_id, std::span<const OptionSpec> specs,
                          const OptionMap& given);

// Parses "name=value" (command line) into `options`; throws InputError on a missing '='.
void parse_option_assignment(std::string_view text, OptionMap& options);

// What is wrong with setting option `name` to `value`, if anything (unknown option, value not
// allowed), as one sentence naming the allowed names or values.
std::optional<std::string> option_problem(std::span<const OptionSpec> specs,
                                          const std::string& name, const std::string& value);

// Reads a YAML map of options ("reward: log-speedup"), checked against `specs`; InputError names
// the file, the line and the option.
OptionMap parse_options_yaml(std::string_view text, std::string_view origin,
                             std::span<const OptionSpec> specs);

}  // namespace memplace
