#pragma once
// Counts as a command line or a name=value option writes them: decimal digits alone.
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

namespace memplace {

// The whole number `text` spells in decimal digits alone (leading zeros are decimal: "010" is
// ten), or nullopt for anything else: a sign, a space, "0x10", "1e3", "", or more than 2^64 - 1.
// YAML files read numbers YAML's way instead (YamlInput::count).
inline std::optional<std::uint64_t> parse_whole_number(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || stop != end || error != std::errc()) return std::nullopt;
  return value;
}

// The same, for a count kept in an int64: nullopt past 2^63 - 1 too.
inline std::optional<std::int64_t> parse_count(std::string_view text) {
  const std::optional<std::uint64_t> value = parse_whole_number(text);
  if (!value || *value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return static_cast<std::int64_t>(*value);
}

}  // namespace memplace
