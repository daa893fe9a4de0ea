// Numbers as text, the same way in every report: terminal tables, table.md and table.csv, SVG
// figures, progress lines. printf's formatting of a double is exact and locale-free here ("C"),
// so the same value prints the same bytes on every machine.
#pragma once

#include <string>

namespace memplace {

// 3.14159, 2 -> "3.14".
std::string format_fixed(double value, int decimals);
// 0.000123456, 3 -> "0.000123"; 1234567, 3 -> "1.23e+06" (printf's %g).
std::string format_significant(double value, int digits);
// 1234567 -> "1.23 M".
std::string format_count(double value);
// Binary prefixes: 4194304 -> "4.00 MiB".
std::string format_bytes(double bytes);
// Seconds to the nearest second: "42s", "3m07s", "2h05m".
std::string format_duration(double seconds);

}  // namespace memplace
