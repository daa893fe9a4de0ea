// Suite runs from Python (python/memplace/suite.py, docs/python.md "Suite runs"): a table folder
// opened as `memplace table` opens it, an external agent's runs scored and recorded in C++
// (experiments/table/external_run.hpp), and the report `memplace table` writes.
#include <filesystem>
#include <map>
#include <optional>

#include "experiments/suite/table_folder_report.hpp"
#include "experiments/table/external_run.hpp"
#include "experiments/table/table_runner.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

namespace {

namespace fs = std::filesystem;
using experiments::ExternalRun;
using experiments::TableConfig;
using experiments::TableRunner;

py::dict result_dict(const experiments::CellResult& r) {
  py::dict d;
  d["agent"] = r.agent;
  d["workload"] = r.workload;
  d["seed"] = r.seed;
  d["evaluations"] = r.evaluations;
  d["found_valid"] = r.found_valid;
  d["best_speedup"] = r.best_speedup;
  d["evaluations_to_95"] = r.evaluations_to_95;
  d["wall_seconds"] = r.wall_seconds;
  d["status"] = r.agent_status;
  return d;
}

// The config of a suite run: `base_yaml` (a table config) with the external row `row` added to
// the rows of the table `folder` already holds (none if it holds none), and the overrides given.
TableConfig suite_run_config(const std::string& base_yaml, const std::string& origin,
                             const fs::path& folder, const std::string& row,
                             const std::map<std::string, std::string>& about,
                             const OptionMap& hyperparameters,
                             const std::optional<std::vector<std::string>>& workloads,
                             std::optional<std::uint64_t> seeds,
                             std::optional<std::uint64_t> budget) {
  TableConfig c = TableConfig::parse_yaml(base_yaml, origin);
  c.agents.clear();
  if (fs::exists(folder / "config.yaml")) {
    const TableConfig saved = TableConfig::load(folder / "config.yaml");
    c.agents = saved.agents;
    c.variants = saved.variants;
    c.external = saved.external;
    c.hyperparameters = saved.hyperparameters;
    std::erase(c.agents, row);
  }
  c.agents.push_back(row);
  auto field = [&](const char* key) {
    const auto it = about.find(key);
    return it == about.end() ? std::string() : it->second;
  };
  c.external[row] = {field("description"), field("code"), field("env")};
  c.hyperparameters[row] = hyperparameters;
  if (workloads) c.workloads = *workloads;
  if (seeds) c.seeds = *seeds;
  if (budget) c.budget = *budget;
  return c;
}

// Opens (creating, checking or extending) a table folder with the suite run's config, as
// `memplace table` does; returns what the Python side needs to run its external rows.
py::dict open_table(const std::string& base_yaml, const std::string& origin,
                    const std::string& folder, const std::string& row,
                    const std::map<std::string, std::string>& about,
                    const std::map<std::string, std::string>& hyperparameters,
                    const std::optional<std::vector<std::string>>& workloads,
                    std::optional<std::uint64_t> seeds, std::optional<std::uint64_t> budget) {
  OptionMap options(hyperparameters.begin(), hyperparameters.end());
  TableRunner runner(
      suite_run_config(base_yaml, origin, folder, row, about, options, workloads, seeds, budget),
      folder);
  const TableConfig& c = runner.config();
  py::dict out;
  py::list cells;
  for (const std::string& row : c.agents) {
    if (!c.is_external(row)) continue;
    for (const std::string& workload : c.workloads)
      for (std::uint64_t seed = 0; seed < c.seeds; ++seed) {
        const fs::path run = runner.cell_folder(row, workload, seed);
        cells.append(
            py::make_tuple(row, workload, seed, run.string(), fs::exists(run / "result.yaml")));
      }
  }
  out["cells"] = cells;
  out["extension"] = runner.extension()
                         ? py::object(py::str(experiments::describe_extension(*runner.extension())))
                         : py::object(py::none());
  out["env_options"] = c.env_options();
  out["cost_model"] = "cm" + std::string(version_name(c.env_version)).substr(1);
  out["budget"] = c.budget;
  out["seeds"] = c.seeds;
  out["workloads"] = c.workloads;
  out["agents"] = c.agents;
  return out;
}

py::tuple table_report(const std::string& folder) {
  TableRunner runner(TableConfig::load(fs::path(folder) / "config.yaml"), folder);
  const experiments::TableOutcome outcome = runner.finished();
  const TableConfig& c = runner.config();
  const std::size_t total = c.agents.size() * c.workloads.size() * c.seeds;
  const experiments::TableFolderReport report =
      experiments::write_table_folder_report(runner, outcome.cells, total - outcome.cells.size());
  return py::make_tuple(report.markdown, report.files, total - outcome.cells.size());
}

}  // namespace

void bind_suite(py::module_& m) {
  py::register_exception<experiments::BudgetExhausted>(m, "BudgetExhausted", PyExc_RuntimeError);
  m.def("_open_table", &open_table, py::arg("base_yaml"), py::arg("origin"), py::arg("folder"),
        py::arg("row"), py::arg("about"), py::arg("hyperparameters"), py::arg("workloads"),
        py::arg("seeds"), py::arg("budget"),
        "Opens a table folder with a suite run's config, as `memplace table` does (InputError if "
        "it holds a table whose finished runs that config would change).");
  m.def("_table_report", &table_report, py::arg("folder"),
        "Writes the report of a table folder's finished runs, as `memplace table` does; returns "
        "(markdown, files written, runs missing).");
  py::class_<ExternalRun>(m, "_ExternalRun")
      .def(py::init([](const std::string& table, const std::string& row,
                       const std::string& instance, std::uint64_t seed) {
             return std::make_unique<ExternalRun>(table, row, instance, seed);
           }),
           py::arg("table"), py::arg("row"), py::arg("instance"), py::arg("seed"))
      .def_property_readonly("budget", &ExternalRun::budget)
      .def_property_readonly("evaluations", &ExternalRun::evaluations)
      .def_property_readonly("best_speedup", &ExternalRun::best_speedup)
      .def_property_readonly("num_tensors", &ExternalRun::num_tensors)
      .def_property_readonly("folder", [](const ExternalRun& r) { return r.folder().string(); })
      .def("require_budget_left", &ExternalRun::require_budget_left)
      .def(
          "evaluate",
          [](ExternalRun& run, py::handle mapping) {
            std::vector<std::int64_t> memories;
            read_integers(mapping, "mapping", memories);
            const agents::Outcome o = run.evaluate(memories);
            return py::make_tuple(o.speedup, o.valid, o.rectified);
          },
          py::arg("mapping"),
          "Scores a mapping under the table's scoring (one evaluation): (speedup, valid, "
          "rectified). BudgetExhausted once the budget is spent.")
      .def(
          "finish",
          [](ExternalRun& run, const std::string& status,
             const std::map<std::string, std::string>& facts) {
            return result_dict(run.finish(status, facts));
          },
          py::arg("status"), py::arg("facts"));
}

}  // namespace memplace::python
