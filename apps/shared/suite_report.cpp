#include "apps/shared/suite_report.hpp"

#include <algorithm>
#include <map>

#include "apps/shared/hardware_summary.hpp"
#include "apps/shared/text_table.hpp"
#include "model/model_spec.hpp"
#include "model/references.hpp"
#include "optimum/headroom.hpp"

namespace memplace::cli {

std::optional<double> SuiteRow::best_known_speedup() const {
  if (!best_known_fs) return std::nullopt;
  return speedup(compiler_fs, *best_known_fs);
}

bool SuiteRow::hard() const {
  return best_known_fs && *best_known_speedup() >= kHardSpeedup;
}

std::vector<SuiteRow> suite_rows(const Suite& suite, const std::vector<Split>& splits,
                                 std::ostream* progress, std::optional<Dynamics> dynamics) {
  ModelSpec model;
  model.dynamics = dynamics.value_or(default_dynamics(parse_version(suite.cost_model)));
  std::vector<SuiteRow> rows;
  for (std::size_t i = 0; i < suite.instances.size(); ++i) {
    const SuiteInstance& instance = suite.instances[i];
    const Split split = suite.split(instance);
    if (!splits.empty() && std::find(splits.begin(), splits.end(), split) == splits.end()) continue;
    if (progress != nullptr)
      *progress << "[" << i + 1 << "/" << suite.instances.size() << "] " << instance.id() << "\n";
    model.workload = instance.workload;
    model.hardware = instance.hardware;
    const Simulator sim = model.build();
    SuiteRow row;
    row.instance = instance.id();
    row.workload = instance.workload;
    row.hardware = sim.hardware().name;
    row.split = split;
    row.family = suite.model(suite.workload(instance.workload).model).family;
    row.layers = sim.num_layers();
    row.weights_per_on_chip = weights_per_on_chip(sim);
    const optimum::Headroom headroom = optimum::headroom(sim);
    row.compiler_fs = headroom.compiler_fs;
    if (headroom.best_known) row.best_known_fs = headroom.best_known->latency_fs;
    row.bound_fs = headroom.bound_fs;
    rows.push_back(std::move(row));
  }
  return rows;
}

void print_suite_rows(const Suite& suite, const std::vector<SuiteRow>& rows, std::ostream& out,
                      std::optional<Dynamics> dynamics) {
  const Dynamics scored = dynamics.value_or(default_dynamics(parse_version(suite.cost_model)));
  const std::string_view compiler = scored.model().compiler_name();
  out << "Suite " << suite.name << " under cost model " << suite.cost_model;
  if (dynamics) out << ", scored under the " << dynamics_name(*dynamics) << " dynamics";
  out << "; speedup = compiler latency / latency (" << compiler << ")\n\n";
  TextTable table({"instance", "split", "family", "layers", "weights / on-chip", "compiler (us)",
                   "best known (us, speedup)", "bound (us, speedup)", "hard"});
  std::map<std::string, int> hard_by_hardware;
  std::map<std::string, int> by_hardware;
  int hard = 0, hard_test = 0, hard_dev = 0;
  for (const SuiteRow& r : rows) {
    table.add_row(
        {r.instance, std::string(split_name(r.split)), r.family, std::to_string(r.layers),
         weights_per_on_chip_cell(r.weights_per_on_chip), latency_cell(r.compiler_fs),
         r.best_known_fs ? latency_and_speedup_cell(r.compiler_fs, *r.best_known_fs) : "—",
         latency_and_speedup_cell(r.compiler_fs, r.bound_fs), r.hard() ? "yes" : "no"});
    ++by_hardware[r.hardware];
    if (!r.hard()) continue;
    ++hard;
    ++hard_by_hardware[r.hardware];
    ++(r.split == Split::test ? hard_test : hard_dev);
  }
  table.print(out);
  out << "\nHard (best known at least " << format_fixed(kHardSpeedup, 2)
      << "x the compiler): " << hard << " of " << rows.size() << " instances (" << hard_test
      << " test, " << hard_dev << " dev); by hardware:";
  for (const auto& [hardware, count] : by_hardware)
    out << " " << hardware << " " << hard_by_hardware[hardware] << " of " << count << ";";
  out << "\n";
}

nlohmann::json suite_json(const Suite& suite, const std::vector<SuiteRow>& rows) {
  nlohmann::json instances = nlohmann::json::array();
  for (const SuiteRow& r : rows) {
    instances.push_back({{"instance", r.instance},
                         {"workload", r.workload},
                         {"hardware", r.hardware},
                         {"split", std::string(split_name(r.split))},
                         {"family", r.family},
                         {"layers", r.layers},
                         {"weights_per_on_chip", r.weights_per_on_chip},
                         {"compiler_fs", r.compiler_fs},
                         {"best_known_fs", r.best_known_fs ? nlohmann::json(*r.best_known_fs)
                                                           : nlohmann::json(nullptr)},
                         {"bound_fs", r.bound_fs},
                         {"hard", r.hard()}});
  }
  return {{"suite", suite.name}, {"cost_model", suite.cost_model}, {"instances", instances}};
}

}  // namespace memplace::cli
