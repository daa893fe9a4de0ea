// Small text helpers every floor uses to write messages and reports.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace memplace {

// "a, b, c" for {"a", "b", "c"} and ", ".
std::string join(std::span<const std::string> values, std::string_view separator);

}  // namespace memplace
