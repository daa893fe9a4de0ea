#include "base/text.hpp"

namespace memplace {

std::string join(std::span<const std::string> values, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += separator;
    out += values[i];
  }
  return out;
}

}  // namespace memplace
