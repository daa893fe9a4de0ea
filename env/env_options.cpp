#include "env/env_options.hpp"

#include <algorithm>

namespace memplace {

std::vector<OptionSpec> common_option_specs() {
  return {
      {"workload", "resnet50", {}, "a shipped workload name or a workload YAML file"},
      {"hardware", "nnpi", {}, "a shipped hardware model name or a hardware YAML file"},
      {"memory_time",
       "hardware",
       {"hardware", "max", "sum"},
       "how a layer's transfers to different memories combine; 'hardware' uses the model's rule"},
  };
}

OptionMap resolve_options(std::string_view env_id, std::span<const OptionSpec> specs,
                          const OptionMap& given) {
  OptionMap resolved;
  for (const OptionSpec& spec : specs)
    resolved[spec.name] = spec.default_value;
  for (const auto& [name, value] : given) {
    const auto spec = std::find_if(specs.begin(), specs.end(),
                                   [&](const OptionSpec& s) { return s.name == name; });
    if (spec == specs.end()) {
      std::string list;
      for (const OptionSpec& s : specs)
        list += (list.empty() ? "" : ", ") + s.name;
      throw InputError(std::string(env_id) + ": unknown option '" + name + "' (options: " + list +
                       ")");
    }
    const bool allowed =
        spec->choices.empty()
            ? !value.empty()
            : std::find(spec->choices.begin(), spec->choices.end(), value) != spec->choices.end();
    if (!allowed) {
      std::string list;
      for (const std::string& c : spec->choices)
        list += (list.empty() ? "" : ", ") + c;
      throw InputError(std::string(env_id) + ": option '" + name + "': " +
                       (spec->choices.empty()
                            ? "must not be empty"
                            : "expected one of " + list + ", got '" + value + "'"));
    }
    resolved[name] = value;
  }
  return resolved;
}

void parse_option_assignment(std::string_view text, OptionMap& options) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    throw InputError("environment option '" + std::string(text) + "': expected name=value");
  }
  options[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
}

}  // namespace memplace
