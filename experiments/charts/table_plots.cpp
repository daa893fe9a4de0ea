#include "experiments/charts/table_plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "agents/training/run_folder.hpp"
#include "base/atomic_file.hpp"
#include "base/number_format.hpp"
#include "base/yaml_input.hpp"
#include "experiments/charts/svg_chart.hpp"
#include "model/inputs/workload.hpp"
#include "model/mapping_io.hpp"
#include "model/memory_profile.hpp"
#include "model/references.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;

// The speedup axis: from a little under the worst final mean of the agents that found a valid
// mapping (runs still at 0 would squash the rest; the chart clips them) to just over the best.
// The reference lines are kept in view too.
void speedup_range(std::span<const AgentCurve> curves, LineChart& chart) {
  double lowest = 0, highest = 0;
  bool any = false;
  for (const AgentCurve& c : curves) {
    if (c.mean.empty() || c.mean.back() <= 0) continue;
    const double top = *std::max_element(c.high.begin(), c.high.end());
    lowest = any ? std::min(lowest, c.mean.back()) : c.mean.back();
    highest = any ? std::max(highest, top) : top;
    any = true;
  }
  if (!any) return;
  for (const ReferenceLine& r : chart.references)
    highest = std::max(highest, r.y);
  const double span = std::max(0.02, highest - lowest);
  chart.y_min = std::max(0.0, lowest - 0.5 * span);
  chart.y_max = highest + 0.05 * span;
}

// The best known (the optimum where it is proven) and the bound of a workload, from its rows.
std::vector<ReferenceLine> reference_lines(const std::string& workload,
                                           std::span<const TableRow> rows) {
  for (const TableRow& r : rows) {
    if (r.workload != workload) continue;
    std::vector<ReferenceLine> lines;
    if (r.best_known_speedup > 0)  // false for NaN
      lines.push_back({r.best_known_is_optimum ? "optimum" : "best known", r.best_known_speedup});
    if (r.bound_speedup > 0 && r.bound_speedup != r.best_known_speedup)
      lines.push_back({"bound", r.bound_speedup});
    return lines;
  }
  return {};
}

void write_curves(const TableRunner& runner, const std::string& workload,
                  std::span<const CellResult> cells, std::span<const TableRow> rows,
                  std::vector<AgentCurve>& all, std::vector<fs::path>& written) {
  const TableConfig& config = runner.config();
  std::vector<AgentCurve> curves;
  for (const std::string& agent : config.agents) {
    std::vector<std::vector<agents::CurveRow>> seeds;
    for (const CellResult& c : cells)
      if (c.workload == workload && c.agent == agent)
        seeds.push_back(
            read_curve_csv(agents::RunFolder{runner.cell_folder(agent, workload, c.seed)}.curve()));
    if (!seeds.empty()) curves.push_back(combine_curves(workload, agent, seeds));
  }
  if (curves.empty()) return;
  LineChart chart;
  chart.title = "Learning curves on " + workload_label(workload) + " (" +
                std::to_string(config.seeds) + " seeds: mean and range)";
  chart.x_label = "simulator evaluations";
  chart.y_label = "best speedup over the compiler";
  for (const AgentCurve& c : curves)
    chart.series.push_back({c.agent, c.evaluations, c.mean, c.low, c.high, false});
  chart.references = reference_lines(workload, rows);
  speedup_range(curves, chart);
  const fs::path file = runner.folder() / ("curves-" + workload_label(workload) + ".svg");
  write_file_atomically(file, render_line_chart(chart));
  written.push_back(file);
  all.insert(all.end(), curves.begin(), curves.end());
}

// The best finished run of a workload (the first in table order among equals), if any found a
// valid mapping.
const CellResult* best_cell(const std::string& workload, std::span<const CellResult> cells) {
  const CellResult* best = nullptr;
  for (const CellResult& c : cells)
    if (c.workload == workload && c.found_valid && (!best || c.best_speedup > best->best_speedup))
      best = &c;
  return best;
}

void write_mapping_figures(const TableRunner& runner, const std::string& workload,
                           std::span<const CellResult> cells, std::vector<fs::path>& written) {
  const CellResult* best = best_cell(workload, cells);
  if (!best) return;
  // The figures show placement and memory use, which the dynamics does not change: they are drawn
  // on the pinned model, beside its compiler's mapping.
  ModelSpec pinned;
  const ModelSpec table_model = runner.config().model_of(workload);
  pinned.workload = table_model.workload;
  pinned.hardware = table_model.hardware;
  const Simulator sim = pinned.build();
  const Mapping mapping =
      load_mapping(
          agents::RunFolder{runner.cell_folder(best->agent, workload, best->seed)}.best_mapping(),
          sim)
          .mapping;
  const Mapping compiler = compiler_mapping(sim);
  const std::string who = best->agent + " (seed " + std::to_string(best->seed) + ")";

  CategoryGrid grid;
  grid.title = "Placement on " + workload_label(workload) + ": " + who + ", " +
               format_fixed(best->best_speedup, 4) + "x, against the compiler";
  grid.x_label = "layers in schedule order";
  for (std::size_t m = 0; m < sim.num_memories(); ++m)
    grid.categories.push_back(sim.hardware().memories[m].name);
  auto rows = [&](const Mapping& map, const std::string& name) {
    for (const TensorKind kind : {TensorKind::weight, TensorKind::activation}) {
      grid.row_labels.push_back(name + (kind == TensorKind::weight ? " weights" : " activations"));
      std::vector<std::size_t>& row = grid.cells.emplace_back();
      for (std::size_t l = 0; l < sim.num_layers(); ++l)
        row.push_back(map[tensor_id(l, kind)]);
    }
  };
  rows(mapping, best->agent);
  rows(compiler, "compiler");
  fs::path file = runner.folder() / ("placement-" + workload_label(workload) + ".svg");
  write_file_atomically(file, render_category_grid(grid));
  written.push_back(file);

  LineChart chart;
  chart.title = "Memory use over the schedule on " + workload_label(workload) + ": " + who +
                " (solid) and the compiler (dashed)";
  chart.x_label = "schedule step";
  chart.y_label = "share of the memory's capacity (%)";
  chart.y_min = 0;
  chart.y_max = 105;
  const MemoryProfile ours = memory_profile(sim, mapping);
  const MemoryProfile theirs = memory_profile(sim, compiler);
  std::vector<double> steps(sim.num_layers());
  for (std::size_t s = 0; s < steps.size(); ++s)
    steps[s] = static_cast<double>(s);
  auto share = [&](const MemoryProfile& p, std::size_t m) {
    std::vector<double> out;
    for (std::int64_t bytes : p.bytes[m])
      out.push_back(100.0 * static_cast<double>(bytes) / static_cast<double>(sim.capacity(m)));
    return out;
  };
  for (std::size_t m = 0; m < sim.num_memories(); ++m) {
    const std::string name = sim.hardware().memories[m].name;
    const int colour = static_cast<int>(m);
    chart.series.push_back(
        {name + ", " + best->agent, steps, share(ours, m), {}, {}, false, colour});
    chart.series.push_back({name + ", compiler", steps, share(theirs, m), {}, {}, true, colour});
  }
  file = runner.folder() / ("memory-" + workload_label(workload) + ".svg");
  write_file_atomically(file, render_line_chart(chart));
  written.push_back(file);
}

}  // namespace

std::vector<agents::CurveRow> read_curve_csv(const fs::path& path) {
  const std::string text = YamlInput::read_file(path);
  std::istringstream in(text);
  std::string line;
  std::vector<agents::CurveRow> rows;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 || line.empty()) continue;  // the header
    agents::CurveRow r;
    unsigned long long evaluations = 0;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%llu,%lf,%lf,%lf,%lf%c", &evaluations, &r.wall_seconds,
                    &r.best_speedup, &r.batch_mean_speedup, &r.valid_fraction, &extra) != 5 ||
        !std::isfinite(r.best_speedup))
      throw InputError(input_error_message(path.string(), number, "curve",
                                           "expected 5 numbers, got '" + line + "'"));
    r.evaluations = evaluations;
    rows.push_back(r);
  }
  return rows;
}

AgentCurve combine_curves(const std::string& workload, const std::string& agent,
                          std::span<const std::vector<agents::CurveRow>> seeds) {
  AgentCurve c;
  c.workload = workload;
  c.agent = agent;
  const std::vector<agents::CurveRow>* longest = nullptr;
  for (const auto& rows : seeds)
    if (!longest || rows.size() > longest->size()) longest = &rows;
  if (!longest) return c;
  std::vector<std::size_t> at(seeds.size(), 0);  // per seed: rows at or before x
  for (const agents::CurveRow& point : *longest) {
    const auto x = point.evaluations;
    double sum = 0, low = 0, high = 0;
    for (std::size_t k = 0; k < seeds.size(); ++k) {
      const std::vector<agents::CurveRow>& rows = seeds[k];
      while (at[k] < rows.size() && rows[at[k]].evaluations <= x)
        ++at[k];
      const double best = at[k] == 0 ? 0.0 : rows[at[k] - 1].best_speedup;
      sum += best;
      low = k == 0 ? best : std::min(low, best);
      high = k == 0 ? best : std::max(high, best);
    }
    c.evaluations.push_back(static_cast<double>(x));
    c.mean.push_back(sum / static_cast<double>(seeds.size()));
    c.low.push_back(low);
    c.high.push_back(high);
  }
  return c;
}

std::vector<fs::path> write_table_plots(const TableRunner& runner,
                                        std::span<const CellResult> cells,
                                        std::span<const TableRow> rows) {
  std::vector<fs::path> written;
  std::vector<AgentCurve> curves;
  for (const std::string& workload : runner.config().workloads) {
    write_curves(runner, workload, cells, rows, curves, written);
    write_mapping_figures(runner, workload, cells, written);
  }
  std::ostringstream csv;
  csv << "workload,agent,evaluations,mean_best_speedup,min_best_speedup,max_best_speedup\n";
  for (const AgentCurve& c : curves)
    for (std::size_t i = 0; i < c.evaluations.size(); ++i)
      csv << c.workload << "," << c.agent << "," << format_fixed(c.evaluations[i], 0) << ","
          << format_fixed(c.mean[i], 9) << "," << format_fixed(c.low[i], 9) << ","
          << format_fixed(c.high[i], 9) << "\n";
  const fs::path file = runner.folder() / "curves.csv";
  write_file_atomically(file, csv.str());
  written.push_back(file);
  return written;
}

}  // namespace memplace::experiments
