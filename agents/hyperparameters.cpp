#include "agents/hyperparameters.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "base/whole_number.hpp"

namespace memplace::agents {

namespace {

const std::string& lookup(const OptionMap& values, const std::string& agent,
                          std::string_view name) {
  const auto it = values.find(name);
  if (it == values.end())
    throw std::logic_error("agent '" + agent + "' reads hyperparameter '" + std::string(name) +
                           "', which it does not declare");
  return it->second;
}

}  // namespace

double Hyperparameters::number(std::string_view name, double min, double max) const {
  const std::string& text = lookup(values_, agent_, name);
  double value = 0;
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value) || value < min || value > max)
    throw InputError("agent '" + agent_ + "': hyperparameter " + std::string(name) + "=" + text +
                     ": expected a number in [" + format_significant(min, 6) + ", " +
                     format_significant(max, 6) + "]");
  return value;
}

std::int64_t Hyperparameters::integer(std::string_view name, std::int64_t min,
                                      std::int64_t max) const {
  const std::string& text = lookup(values_, agent_, name);
  const std::optional<std::int64_t> value = parse_count(text);
  if (!value || *value < min || *value > max)
    throw InputError("agent '" + agent_ + "': hyperparameter " + std::string(name) + "=" + text +
                     ": expected a whole number in " + std::to_string(min) + ".." +
                     std::to_string(max));
  return *value;
}

bool Hyperparameters::flag(std::string_view name) const {
  const std::string& text = lookup(values_, agent_, name);
  if (text == "true") return true;
  if (text == "false") return false;
  throw InputError("agent '" + agent_ + "': hyperparameter " + std::string(name) + "=" + text +
                   ": expected true or false");
}

const std::string& Hyperparameters::text(std::string_view name) const {
  return lookup(values_, agent_, name);
}

}  // namespace memplace::agents
