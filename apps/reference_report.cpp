#include "apps/reference_report.hpp"

namespace memplace::cli {

std::vector<ReferenceRow> reference_rows(const Simulator& sim) {
  const ReferenceLatencies r = reference_latencies(sim);
  const std::string slowest = "all-" + sim.hardware().memories.back().name;
  return {
      {slowest, r.all_slowest_fs, speedup(r.compiler_fs, r.all_slowest_fs)},
      {"compiler", r.compiler_fs, 1.0},
      {"lower-bound", r.lower_bound_fs, speedup(r.compiler_fs, r.lower_bound_fs)},
  };
}

nlohmann::json reference_json(const std::vector<ReferenceRow>& rows) {
  nlohmann::json doc = nlohmann::json::object();
  for (const ReferenceRow& row : rows) {
    doc[row.name] = {{"latency_fs", row.latency_fs},
                     {"latency_us", to_microseconds(row.latency_fs)},
                     {"speedup", row.speedup}};
  }
  return doc;
}

}  // namespace memplace::cli
