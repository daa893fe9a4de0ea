// memplace references [WORKLOAD...]: the reference mappings of several workloads in one table
// (the main job of `make run` until the agents land).
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/loading.hpp"
#include "apps/reference_report.hpp"
#include "apps/text_table.hpp"

namespace memplace::cli {

namespace {

struct ReferencesOptions {
  std::vector<std::string> workloads = paper_workload_names();
  SimulatorSpec spec;
  bool json = false;
};

void run_references(const ReferencesOptions& o, Streams io) {
  nlohmann::json doc = nlohmann::json::array();
  TextTable table({"workload", "layers", "mapping", "latency (us)", "speedup over compiler"});
  std::string hardware;
  std::vector<std::string> notes;
  for (const std::string& name : o.workloads) {
    const Simulator sim = o.spec.build(name);
    hardware = sim.hardware().name +
               " (memory time: " + std::string(combine_name(sim.memory_time())) + ")";
    const auto certificate = optimum::shipped_certificate(sim);
    const std::vector<ReferenceRow> rows = reference_rows(sim, certificate);
    nlohmann::json entry = {{"workload", sim.workload().name()},
                            {"layers", sim.num_layers()},
                            {"references", reference_json(rows)}};
    if (certificate)
      entry["optimum_status"] = std::string(optimum::status_name(certificate->status));
    doc.push_back(entry);
    for (const ReferenceRow& r : rows) {
      table.add_row({sim.workload().name(), std::to_string(sim.num_layers()), r.name,
                     format_fixed(to_microseconds(r.latency_fs), 2), format_fixed(r.speedup, 4)});
    }
    notes.push_back(optimum_note(sim, certificate));
  }
  if (o.json) {
    io.out << doc.dump(2) << "\n";
    return;
  }
  io.out << "Reference mappings on " << hardware << "; speedup = compiler latency / latency\n\n";
  table.print(io.out);
  io.out << "\n";
  for (const std::string& note : notes)
    io.out << note << "\n";
}

}  // namespace

void add_references_command(CLI::App& app, Streams io) {
  auto* cmd =
      app.add_subcommand("references",
                         "Latency and speedup of the reference mappings (all-slowest, compiler, "
                         "optimum, capacity-free bound) for several workloads");
  auto options = std::make_shared<ReferencesOptions>();
  cmd->add_option("workloads", options->workloads, "Workload names or files")
      ->capture_default_str();
  options->spec.add_options(*cmd);
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->callback([io, options] { run_references(*options, io); });
}

}  // namespace memplace::cli
