// Environment options by name: one declaration per option (name, default, allowed values, help),
// validated in one place, as EnvPool declares its config.
#pragma once

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

// Checks `given` against `specs` and fills in defaults. Throws InputError naming the environment,
// the option and the allowed values for an unknown option or a bad value.
OptionMap resolve_options(std::string_view env_id, std::span<const OptionSpec> specs,
                          const OptionMap& given);

// Parses "name=value" (command line) into `options`; throws InputError on a missing '='.
void parse_option_assignment(std::string_view text, OptionMap& options);

}  // namespace memplace
