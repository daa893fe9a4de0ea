#include "apps/shared/reference_report.hpp"

#include "apps/shared/text_table.hpp"
#include "optimum/certificate.hpp"

namespace memplace::cli {

std::vector<ReferenceRow> reference_rows(const optimum::Headroom& h, const Simulator& sim) {
  auto row = [&](std::string name, TimeFs t) {
    return ReferenceRow{std::move(name), t, h.speedup(t)};
  };
  const bool streaming = has_dma(sim.dynamics());
  std::vector<ReferenceRow> rows = {
      row("all-" + sim.hardware().memories.back().name, h.all_slowest_fs)};
  if (h.pinned_compiler_fs) rows.push_back(row("pinned-compiler", *h.pinned_compiler_fs));
  rows.push_back(row("compiler", h.compiler_fs));
  // No optimum under streaming: the best mapping memplace ships, re-scored.
  if (streaming && h.best_known) rows.push_back(row("best-known", h.best_known->latency_fs));
  if (const auto& c = h.certificate) {
    if (c->proven()) {
      rows.push_back(row("optimum", c->latency_fs));
    } else {
      rows.push_back(row("best-known", c->latency_fs));
      rows.push_back(row("optimum-bound", c->bound_fs));
    }
  }
  rows.push_back(row("capacity-free-bound", h.capacity_free_bound_fs));
  if (h.slowest_port_bound_fs) rows.push_back(row("slowest-port-bound", *h.slowest_port_bound_fs));
  if (h.compute_bound_fs) rows.push_back(row("compute-bound", *h.compute_bound_fs));
  if (h.capacity_aware_bound_fs)
    rows.push_back(row("capacity-aware-bound", *h.capacity_aware_bound_fs));
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

std::string optimum_note(const Simulator& sim, const std::optional<optimum::Certificate>& c,
                         const ModelSpec& model) {
  const std::string what = sim.workload().name() + " on " + sim.hardware().name + " (" +
                           std::string(combine_name(sim.memory_time())) + ")";
  if (sim.dynamics() == Dynamics::streaming) {
    return what + ", streaming (lookahead " + std::to_string(sim.hardware().dma.lookahead) +
           "): speedups are over the streaming-aware compiler; the exact optimum is the pinned "
           "dynamics' only, and no mapping beats the largest bound (docs/cost-model.md)";
  }
  if (sim.dynamics() == Dynamics::addressed) {
    return what + ", addressed (lookahead " + std::to_string(sim.hardware().dma.lookahead) +
           "): speedups are over the addressed compiler (best-fit offsets); streaming's bounds "
           "hold, as no mapping is faster under v2 than under v1 (docs/cost-model.md)";
  }
  if (sim.dynamics() != Dynamics::pinned) {  // a dynamics with no note of its own here
    return what + ", " + std::string(sim.dynamics().name()) + ": speedups are over " +
           std::string(sim.dynamics_model().compiler_name()) +
           "; optimum certificates are the pinned dynamics' (docs/cost-model.md)";
  }
  if (!c) {
    return what + ": no shipped optimum certificate; `" + optimum::optimum_command(model) +
           "` computes it";
  }
  if (c->proven()) return what + ": optimum proven by " + c->solver + " (docs/optimum.md)";
  return what + ": optimum not proven within " + format_fixed(c->time_limit_s, 0) + " s by " +
         c->solver + "; the best-known mapping is within " + format_fixed(100 * c->gap(), 3) +
         " % of the optimum-bound (docs/optimum.md)";
}

}  // namespace memplace::cli
