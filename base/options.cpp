#include "base/options.hpp"

#include <algorithm>

#include "base/errors.hpp"
#include "base/yaml_input.hpp"

namespace memplace {

std::optional<std::string> option_problem(std::span<const OptionSpec> specs,
                                          const std::string& name, const std::string& value) {
  const auto spec =
      std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
  if (spec == specs.end())
    return "unknown option '" + name + "' (options: " + option_names(specs) + ")";
  if (spec->choices.empty()) {
    if (value.empty()) return "option '" + name + "': must not be empty";
    return std::nullopt;
  }
  if (std::find(spec->choices.begin(), spec->choices.end(), value) != spec->choices.end()) {
    return std::nullopt;
  }
  std::string list;
  for (const std::string& c : spec->choices)
    list += (list.empty() ? "" : ", ") + c;
  return "option '" + name + "': expected one of " + list + ", got '" + value + "'";
}

OptionMap resolve_options(std::string_view what, std::span<const OptionSpec> specs,
                          const OptionMap& given) {
  OptionMap resolved;
  for (const OptionSpec& spec : specs)
    resolved[spec.name] = spec.default_value;
  for (const auto& [name, value] : given) {
    if (auto problem = option_problem(specs, name, value)) {
      throw InputError(std::string(what) + ": " + *problem);
    }
    resolved[name] = value;
  }
  return resolved;
}

void parse_option_assignment(std::string_view text, OptionMap& options, std::string_view what) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    throw InputError(std::string(what) + " '" + std::string(text) + "': expected name=value");
  }
  options[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
}

std::string option_names(std::span<const OptionSpec> specs) {
  std::string list;
  for (const OptionSpec& s : specs)
    list += (list.empty() ? "" : ", ") + s.name;
  return list;
}

OptionMap parse_options_yaml(std::string_view text, std::string_view origin,
                             std::span<const OptionSpec> specs) {
  const YamlInput in(text, std::string(origin));
  OptionMap options;
  for (const auto& kv : in.root()) {
    const std::string name = in.string(kv.first, "option name");
    const std::string value = in.string(kv.second, name);
    if (auto problem = option_problem(specs, name, value)) {
      const bool unknown = problem->starts_with("unknown");
      in.fail(unknown ? kv.first : kv.second, unknown ? "" : name,
              unknown ? *problem : problem->substr(problem->find(": ") + 2));
    }
    options[name] = value;
  }
  return options;
}

}  // namespace memplace
