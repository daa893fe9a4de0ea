#include "apps/reference_report.hpp"

#include "apps/text_table.hpp"
#include "env/optimum/best_known.hpp"
#include "env/optimum/streaming_bound.hpp"

namespace memplace::cli {

std::vector<ReferenceRow> reference_rows(const Simulator& sim,
                                         const std::optional<optimum::Certificate>& certificate) {
  const ReferenceLatencies r = reference_latencies(sim);
  const std::string slowest = "all-" + sim.hardware().memories.back().name;
  std::vector<ReferenceRow> rows = {
      {slowest, r.all_slowest_fs, speedup(r.compiler_fs, r.all_slowest_fs)}};
  if (sim.dynamics() == Dynamics::streaming) {
    const TimeFs pinned_fs = sim.evaluate(pinned_compiler_mapping(sim)).latency_fs;
    rows.push_back({"pinned-compiler", pinned_fs, speedup(r.compiler_fs, pinned_fs)});
  }
  rows.push_back({"compiler", r.compiler_fs, 1.0});
  if (sim.dynamics() == Dynamics::streaming) {
    // No optimum under streaming: the best mapping memplace ships, re-scored here.
    if (const auto known = optimum::best_shipped_mapping(sim))
      rows.push_back({"best-known", known->latency_fs, speedup(r.compiler_fs, known->latency_fs)});
  }
  if (certificate) {
    const optimum::Certificate& c = *certificate;
    if (c.proven()) {
      rows.push_back({"optimum", c.latency_fs, speedup(r.compiler_fs, c.latency_fs)});
    } else {
      rows.push_back({"best-known", c.latency_fs, speedup(r.compiler_fs, c.latency_fs)});
      rows.push_back({"optimum-bound", c.bound_fs, speedup(r.compiler_fs, c.bound_fs)});
    }
  }
  const TimeFs capacity_free = lower_bound_fs(sim);
  rows.push_back({"capacity-free-bound", capacity_free, speedup(r.compiler_fs, capacity_free)});
  if (sim.dynamics() == Dynamics::streaming) {
    const TimeFs port = slowest_port_bound_fs(sim), compute = compute_bound_fs(sim);
    rows.push_back({"slowest-port-bound", port, speedup(r.compiler_fs, port)});
    rows.push_back({"compute-bound", compute, speedup(r.compiler_fs, compute)});
    const TimeFs lp = optimum::streaming_bound_fs(sim);
    rows.push_back({"capacity-aware-bound", lp, speedup(r.compiler_fs, lp)});
  }
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
  if (sim.dynamics() == Dynamics::streaming) {
    return what + ", streaming (lookahead " + std::to_string(sim.hardware().dma.lookahead) +
           "): speedups are over the streaming-aware compiler; the exact optimum is the pinned "
           "dynamics' only, and no mapping beats the largest bound (docs/cost-model.md)";
  }
  if (!c) {
    return what + ": no shipped optimum certificate; `memplace optimum " + sim.workload().name() +
           "` computes it";
  }
  if (c->proven()) return what + ": optimum proven by " + c->solver + " (docs/optimum.md)";
  return what + ": optimum not proven within " + format_fixed(c->time_limit_s, 0) + " s by " +
         c->solver + "; the best-known mapping is within " + format_fixed(100 * c->gap(), 3) +
         " % of the optimum-bound (docs/optimum.md)";
}

}  // namespace memplace::cli
