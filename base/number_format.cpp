#include "base/number_format.hpp"

#include <cstdio>

namespace memplace {

std::string format_fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_significant(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

std::string format_count(double value) {
  const char* units[] = {"", " k", " M", " G", " T"};
  int u = 0;
  while (value >= 1000 && u < 4)
    value /= 1000, ++u;
  return u == 0 ? format_fixed(value, 0) : format_fixed(value, 2) + units[u];
}

std::string format_bytes(double bytes) {
  const char* units[] = {" B", " KiB", " MiB", " GiB", " TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4)
    bytes /= 1024, ++u;
  return u == 0 ? format_fixed(bytes, 0) + units[0] : format_fixed(bytes, 2) + units[u];
}

std::string format_duration(double seconds) {
  char text[32];
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%lldh%02lldm", s / 3600, s / 60 % 60);
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%lldm%02llds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%llds", s);
  return text;
}

}  // namespace memplace
