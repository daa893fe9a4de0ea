#include "apps/shared/hardware_summary.hpp"

#include "apps/shared/text_table.hpp"
#include "model/references.hpp"
#include "optimum/headroom.hpp"

namespace memplace::cli {

namespace {

std::string times(TimeFs compiler, TimeFs t) {
  return format_fixed(speedup(compiler, t), 4);
}

// The optimum's cell: its latency and speedup when proven; between the bound and the best
// known mapping when the solver stopped first.
std::string optimum_cell(const HardwareSummaryRow& r) {
  if (!r.v0_optimum_fs) return "—";
  if (*r.v0_optimum_fs == *r.v0_optimum_bound_fs)
    return latency_cell(*r.v0_optimum_fs) + " (" + times(r.v0_compiler_fs, *r.v0_optimum_fs) + ")";
  return latency_cell(*r.v0_optimum_bound_fs) + "…" + latency_cell(*r.v0_optimum_fs) + " (" +
         times(r.v0_compiler_fs, *r.v0_optimum_fs) + "…" +
         times(r.v0_compiler_fs, *r.v0_optimum_bound_fs) + ")";
}

}  // namespace

std::string latency_cell(TimeFs t) {
  return format_fixed(to_microseconds(t), 2);
}

std::string latency_and_speedup_cell(TimeFs compiler, TimeFs t) {
  return latency_cell(t) + " (" + times(compiler, t) + ")";
}

double weights_per_on_chip(const Simulator& sim) {
  std::int64_t on_chip = 0;
  for (std::size_t m = 0; m < sim.hardware().slowest(); ++m)
    on_chip += sim.hardware().memories[m].capacity_bytes;
  return on_chip > 0 ? static_cast<double>(sim.workload().total_weight_bytes()) /
                           static_cast<double>(on_chip)
                     : 0;
}

std::string weights_per_on_chip_cell(double ratio) {
  return format_fixed(ratio, ratio < 0.1 ? 3 : 2) + "x";
}

HardwareSummaryRow summarise(const std::string& workload, const std::string& hardware,
                             const ModelSpec& model) {
  ModelSpec pinned = model, streaming = model;
  pinned.workload = workload;
  pinned.hardware = hardware;
  pinned.dynamics = Dynamics::pinned;
  streaming.dynamics = Dynamics::streaming;
  HardwareSummaryRow row;
  const Simulator v0 = pinned.build();
  row.workload = v0.workload().name();
  row.hardware = v0.hardware().name;
  row.weights_per_on_chip = weights_per_on_chip(v0);
  const optimum::Headroom h0 = optimum::headroom(v0);
  row.v0_compiler_fs = h0.compiler_fs;
  if (const auto& c = h0.certificate) {
    row.v0_optimum_fs = c->latency_fs;
    row.v0_optimum_bound_fs = c->proven() ? c->latency_fs : c->bound_fs;
  }
  // The v0 simulator's workload and hardware as loaded (one load per row).
  const optimum::Headroom h1 = optimum::headroom(streaming.build(v0.workload(), v0.hardware()));
  row.v1_compiler_fs = h1.compiler_fs;
  if (h1.best_known) row.v1_best_known_fs = h1.best_known->latency_fs;
  row.v1_bound_fs = h1.bound_fs;
  return row;
}

void print_summary(const std::vector<HardwareSummaryRow>& rows, std::ostream& out) {
  TextTable table({"workload", "hardware", "weights / on-chip", "v0 compiler (us)",
                   "v0 optimum (us, speedup)", "v1 compiler (us)", "v1 best known (us, speedup)",
                   "v1 bound (us, speedup)"});
  for (const HardwareSummaryRow& r : rows) {
    table.add_row(
        {r.workload, r.hardware, weights_per_on_chip_cell(r.weights_per_on_chip),
         latency_cell(r.v0_compiler_fs), optimum_cell(r), latency_cell(r.v1_compiler_fs),
         r.v1_best_known_fs ? latency_and_speedup_cell(r.v1_compiler_fs, *r.v1_best_known_fs) : "—",
         latency_and_speedup_cell(r.v1_compiler_fs, r.v1_bound_fs)});
  }
  table.print(out);
}

nlohmann::json summary_json(const std::vector<HardwareSummaryRow>& rows) {
  nlohmann::json doc = nlohmann::json::array();
  auto optional_fs = [](const std::optional<TimeFs>& t) {
    return t ? nlohmann::json(*t) : nlohmann::json(nullptr);
  };
  for (const HardwareSummaryRow& r : rows) {
    doc.push_back({{"workload", r.workload},
                   {"hardware", r.hardware},
                   {"weights_per_on_chip", r.weights_per_on_chip},
                   {"v0",
                    {{"compiler_fs", r.v0_compiler_fs},
                     {"optimum_fs", optional_fs(r.v0_optimum_fs)},
                     {"optimum_bound_fs", optional_fs(r.v0_optimum_bound_fs)}}},
                   {"v1",
                    {{"compiler_fs", r.v1_compiler_fs},
                     {"best_known_fs", optional_fs(r.v1_best_known_fs)},
                     {"bound_fs", r.v1_bound_fs}}}});
  }
  return doc;
}

}  // namespace memplace::cli
