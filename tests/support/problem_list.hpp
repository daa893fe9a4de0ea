// The env checker's problems (env/checker.hpp) as one failure message, one problem a line.
#pragma once

#include <string>
#include <vector>

namespace memplace::testing {

inline std::string joined(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems)
    out += "\n  " + p;
  return out;
}

}  // namespace memplace::testing
