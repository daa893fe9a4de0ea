#include "apps/reference_report.hpp"

#include "apps/text_table.hpp"

namespace memplace::cli {

std::vector<ReferenceRow> reference_rows(const Simulator& sim,
                                         const std::optional<optimum::Certificate>& certificate) {
  const ReferenceLatencies r = reference_latencies(sim);
  const std::string slowest = "all-" + sim.hardware().memories.back().name;
  std::vector<ReferenceRow> rows = {
      {slowest, r.all_slowest_fs, speedup(r.compiler_fs, r.all_slowest_fs)},
      {"compiler", r.compiler_fs, 1.0},
  };
  if (certificate) {
    const optimum::Certificate& c = *certificate;
    if (c.proven()) {
      rows.push_back({"optimum", c.latency_fs, speedup(r.compiler_fs, c.latency_fs)});
    } else {
      rows.push_back({"best-known", c.latency_fs, speedup(r.compiler_fs, c.latency_fs)});
      rows.push_back({"optimum-bound", c.bound_fs, speedup(r.compiler_fs, c.bound_fs)});
    }
  }
  rows.push_back(
      {"capacity-free-bound", r.lower_bound_fs, speedup(r.compiler_fs, r.lower_bound_fs)});
  return rows;
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

std::string optimum_note(const Simulator& sim, const std::optional<optimum::Certificate>& c) {
  const std::string what = sim.workload().name() + " on " + sim.hardware().name + " (" +
                           std::string(combine_name(sim.memory_time())) + ")";
  if (!c) {
    return what + ": no shipped optimum certificate; `memplace optimum " + sim.workload().name() +
           "` computes it";
  }
  if (c->proven())
    return what + ": optimum proven by " + c->solver + " (docs/optimum.md)";
  return what + ": optimum not proven within " + format_fixed(c->time_limit_s, 0) + " s by " +
         c->solver + "; the best-known mapping is within " + format_fixed(100 * c->gap(), 3) +
         " % of the optimum-bound (docs/optimum.md)";
}

}  // namespace memplace::cli
