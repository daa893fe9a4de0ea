#include "apps/shared/validators.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "base/whole_number.hpp"

namespace memplace::cli {

namespace {

// The number the whole of `text` spells, if finite ("0.5abc", "nan" and "inf" are not).
std::optional<double> finite_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

const CLI::Validator kPositiveSeconds(
    [](const std::string& text) -> std::string {
      const std::optional<double> v = finite_number(text);
      if (v && *v > 0) return "";
      return "must be a positive number of seconds, got '" + text + "'";
    },
    "SECONDS > 0");

const CLI::Validator kFraction(
    [](const std::string& text) -> std::string {
      const std::optional<double> v = finite_number(text);
      if (v && *v >= 0 && *v < 1) return "";
      return "must be a fraction in [0, 1), got '" + text + "'";
    },
    "[0, 1)");

CLI::Validator whole_number(std::uint64_t lowest, std::uint64_t highest) {
  const std::string low = std::to_string(lowest), high = std::to_string(highest);
  const std::string range = low + " to " + high;
  return CLI::Validator(
      [lowest, highest, range](std::string& text) -> std::string {
        const std::optional<std::uint64_t> value = parse_whole_number(text);
        if (!value || *value < lowest || *value > highest)
          return "'" + text + "' is not a whole number from " + range;
        text = std::to_string(*value);
        return "";
      },
      "INT in [" + low + " - " + high + "]");
}

const CLI::Validator kNonEmptyName(
    [](const std::string& name) { return name.empty() ? std::string("an empty name") : ""; }, "");

CLI::Option* add_name_list(CLI::App& cmd, const std::string& flag, std::vector<std::string>& names,
                           const std::string& description) {
  std::string defaults;
  for (const std::string& name : names)
    defaults += (defaults.empty() ? "" : ",") + name;
  auto split = [&names, flag](const std::vector<std::string>& given) {
    names.clear();
    for (const std::string& list : given)
      for (std::string& name : split_name_list(list, flag))
        names.push_back(std::move(name));
  };
  return cmd.add_option_function<std::vector<std::string>>(flag, split, description)
      ->default_str(defaults);
}

std::vector<std::string> split_name_list(const std::string& list, const std::string& flag) {
  std::vector<std::string> names;
  for (std::size_t start = 0;;) {
    const std::size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
    if (name.empty()) throw CLI::ValidationError(flag, "'" + list + "': an empty name in the list");
    names.push_back(std::move(name));
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

}  // namespace memplace::cli
