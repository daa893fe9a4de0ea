#include "base/version.hpp"

namespace memplace {

// MEMPLACE_VERSION is defined for this file alone (base/CMakeLists.txt), so that a new version
// recompiles one file.
std::string_view memplace_version() {
  return MEMPLACE_VERSION;
}

}  // namespace memplace
