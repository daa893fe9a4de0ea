// The reference mappings of one workload, for `info` and `references`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "env/references.hpp"

namespace memplace::cli {

struct ReferenceRow {
  std::string name;
  TimeFs latency_fs;
  double speedup;  // over the compiler mapping
};

// all-<slowest memory>, compiler, lower bound, in that order.
std::vector<ReferenceRow> reference_rows(const Simulator& sim);
nlohmann::json reference_json(const std::vector<ReferenceRow>& rows);

}  // namespace memplace::cli
