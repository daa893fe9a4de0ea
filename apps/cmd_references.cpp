// memplace references [WORKLOAD...]: the reference mappings of several workloads in one table per
// hardware model, or (--summary) what placement can win on each workload and hardware model
// under both cost models (docs/hardware.md).
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/shared/cli_model.hpp"
#include "apps/shared/hardware_summary.hpp"
#include "apps/shared/progress.hpp"
#include "apps/shared/reference_report.hpp"
#include "apps/shared/suite_report.hpp"
#include "apps/shared/text_table.hpp"
#include "apps/shared/validators.hpp"
#include "base/errors.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/workload.hpp"

namespace memplace::cli {

namespace {

struct ReferencesOptions {
  std::vector<std::string> workloads = paper_workload_names();
  ModelSpec model;  // its workload: each of `workloads`
  bool summary = false;
  bool json = false;
  std::string suite;                // a suite's name or file: its instances instead of workloads
  std::vector<std::string> splits;  // of the suite: dev, test (empty: both)
  std::optional<Dynamics> suite_dynamics;  // --dynamics with --suite: instead of the suite's
};

// "all" stands for every shipped one; anything else is kept (names or files, checked on loading).
std::vector<std::string> expand_all(const std::vector<std::string>& given,
                                    const std::vector<std::string>& shipped) {
  std::vector<std::string> out;
  for (const std::string& name : given) {
    if (name == "all")
      out.insert(out.end(), shipped.begin(), shipped.end());
    else
      out.push_back(name);
  }
  return out;
}

// --hardware: one model, several separated by commas, or all (the default model first).
std::vector<std::string> hardware_list(const std::string& option) {
  return expand_all(split_name_list(option, "--hardware"), embedded_hardware_names());
}

// One table per hardware model, with the notes on where the optimum rows come from.
void print_references(const std::vector<std::string>& workloads, ModelSpec model,
                      nlohmann::json& doc, std::ostream* text) {
  TextTable table({"workload", "layers", "mapping", "latency (us)", "speedup over compiler"});
  std::string hardware;
  std::vector<std::string> notes;
  for (const std::string& name : workloads) {
    model.workload = name;
    const Simulator sim = model.build();
    hardware = sim.hardware().name +
               " (memory time: " + std::string(combine_name(sim.memory_time())) + ")";
    const optimum::Headroom headroom = optimum::headroom(sim);
    const auto& certificate = headroom.certificate;
    const std::vector<ReferenceRow> rows = reference_rows(headroom, sim);
    nlohmann::json entry = {{"workload", sim.workload().name()},
                            {"hardware", sim.hardware().name},
                            {"layers", sim.num_layers()},
                            {"references", reference_json(rows)}};
    if (certificate)
      entry["optimum_status"] = std::string(optimum::status_name(certificate->status));
    doc.push_back(entry);
    for (const ReferenceRow& r : rows) {
      table.add_row({sim.workload().name(), std::to_string(sim.num_layers()), r.name,
                     format_fixed(to_microseconds(r.latency_fs), 2), format_fixed(r.speedup, 4)});
    }
    notes.push_back(optimum_note(sim, certificate, model));
  }
  if (text == nullptr) return;
  *text << "Reference mappings on " << hardware << "; speedup = compiler latency / latency\n\n";
  table.print(*text);
  *text << "\n";
  for (const std::string& note : notes)
    *text << note << "\n";
}

// A suite's instances, each on its own hardware model under the suite's cost model.
void run_suite_references(const ReferencesOptions& o, Streams io) {
  const Suite suite = load_suite(o.suite);
  std::vector<Split> splits;
  for (const std::string& s : o.splits)
    splits.push_back(*split_from_name(s));  // checked by CLI11
  // Every instance's hardware is checked before anything is printed.
  for (const SuiteInstance& instance : suite.instances)
    (void)load_hardware(instance.hardware);
  const std::vector<SuiteRow> rows =
      suite_rows(suite, splits, is_terminal(2) ? &io.err : nullptr, o.suite_dynamics);
  if (o.json)
    io.out << suite_json(suite, rows).dump(2) << "\n";
  else
    print_suite_rows(suite, rows, io.out, o.suite_dynamics);
}

void run_references(const ReferencesOptions& o, Streams io) {
  if (!o.suite.empty()) return run_suite_references(o, io);
  const std::vector<std::string> workloads = expand_all(o.workloads, embedded_workload_names());
  const std::vector<std::string> hardware = hardware_list(o.model.hardware);
  // Every name is checked before anything is printed.
  for (const std::string& h : hardware)
    (void)load_hardware(h);
  for (const std::string& w : workloads)
    (void)load_workload(w);
  if (o.summary) {
    std::vector<HardwareSummaryRow> rows;
    for (const std::string& h : hardware)
      for (const std::string& w : workloads)
        rows.push_back(summarise(w, h, o.model));
    if (o.json)
      io.out << summary_json(rows).dump(2) << "\n";
    else
      print_summary(rows, io.out);
    return;
  }
  nlohmann::json doc = nlohmann::json::array();
  for (std::size_t h = 0; h < hardware.size(); ++h) {
    ModelSpec model = o.model;
    model.hardware = hardware[h];
    if (h > 0 && !o.json) io.out << "\n";
    print_references(workloads, model, doc, o.json ? nullptr : &io.out);
  }
  if (o.json) io.out << doc.dump(2) << "\n";
}

}  // namespace

void add_references_command(CLI::App& app, Streams io) {
  auto* cmd =
      app.add_subcommand("references",
                         "Latency and speedup of the reference mappings (all-slowest, compiler, "
                         "optimum, bounds) for several workloads and hardware models");
  auto options = std::make_shared<ReferencesOptions>();
  auto* workloads = cmd->add_option("workloads", options->workloads,
                                    "Workload names or files; all: every shipped one")
                        ->capture_default_str();
  add_model_options(*cmd, options->model);
  cmd->get_option("--hardware")
      ->description(
          "Hardware model: a shipped name or a YAML file; several separated by commas; all: every "
          "shipped one");
  cmd->add_flag("--summary", options->summary,
                "One row per workload and hardware model, under both cost models: compiler and "
                "optimum (v0), streaming-aware compiler, best known and bound (v1); --dynamics is "
                "ignored (docs/hardware.md)");
  auto* suite = cmd->add_option("--suite", options->suite,
                                "A suite's instances (a shipped suite such as v1, or a suite "
                                "file) instead of workloads, each on its hardware model under the "
                                "suite's cost model (or --dynamics), with the count of hard ones "
                                "(docs/suite.md)");
  suite->check(kNonEmptyName);
  cmd->add_option("--split", options->splits, "With --suite: only these splits (dev, test)")
      ->check(CLI::IsMember({"dev", "test"}))
      ->needs(suite);
  for (const char* other : {"--summary", "--hardware"})
    suite->excludes(cmd->get_option(other));
  suite->excludes(workloads);
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->callback([io, options, cmd] {
    if (cmd->get_option("--dynamics")->count() > 0)
      options->suite_dynamics = options->model.dynamics;
    run_references(*options, io);
  });
}

}  // namespace memplace::cli
