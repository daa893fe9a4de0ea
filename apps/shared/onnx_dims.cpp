#include "apps/shared/onnx_dims.hpp"

#include "base/errors.hpp"
#include "base/whole_number.hpp"

namespace memplace::cli {

void parse_dims(const std::vector<std::string>& assignments, ImportOptions& options) {
  for (const std::string& text : assignments) {
    const auto eq = text.find('=');
    const std::string name = text.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : text.substr(eq + 1);
    const std::optional<std::int64_t> n = parse_count(value);
    if (name.empty() || !n || *n < 1)
      throw InputError("--dim " + text + ": expected name=value with a whole value of at least 1");
    options.dims[name] = *n;
  }
}

}  // namespace memplace::cli
