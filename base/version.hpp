#pragma once
// memplace's version (the project's VERSION in CMakeLists.txt): `memplace --version`, the Debian
// package, and the version a checkpoint records, so that a checkpoint a build cannot read says
// which memplace wrote it.
#include <string_view>

namespace memplace {

std::string_view memplace_version();

}  // namespace memplace
