#include "apps/shared/validators.hpp"

#include <cmath>
#include <string>

namespace memplace::cli {

const CLI::Validator kPositiveSeconds(
    [](const std::string& text) -> std::string {
      try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v > 0 && std::isfinite(v)) return "";
      } catch (const std::exception&) {
      }
      return "must be a positive number of seconds, got '" + text + "'";
    },
    "SECONDS > 0");

const CLI::Validator kNonEmptyName(
    [](const std::string& name) { return name.empty() ? std::string("an empty name") : ""; }, "");

}  // namespace memplace::cli
