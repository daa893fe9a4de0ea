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
  for (const std::string& name : o.workloads) {
    const Simulator sim = o.spec.build(name);
    hardware = sim.hardware().name +
               " (memory time: " + std::string(combine_name(sim.memory_time())) + ")";
    const std::vector<ReferenceRow> rows = reference_rows(sim);
    doc.push_back({{"workload", sim.workload().name()},
                   {"layers", sim.num_layers()},
                   {"references", reference_json(rows)}});
    for (const ReferenceRow& r : rows) {
      table.add_row({sim.workload().name(), std::to_string(sim.num_layers()), r.name,
                     format_fixed(to_microseconds(r.latency_fs), 2), format_fixed(r.speedup, 3)});
    }
  }
  if (o.json) {
    io.out << doc.dump(2) << "\n";
    return;
  }
  io.out << "Reference mappings on " << hardware << "; speedup = compiler latency / latency\n\n";
  table.print(io.out);
}

}  // namespace

void add_references_command(CLI::App& app, Streams io) {
  auto* cmd =
      app.add_subcommand("references",
                         "Latency and speedup of the reference mappings (all-slowest, compiler, "
                         "lower bound) for several workloads");
  auto options = std::make_shared<ReferencesOptions>();
  cmd->add_option("workloads", options->workloads, "Workload names or files")
      ->capture_default_str();
  options->spec.add_options(*cmd);
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->callback([io, options] { run_references(*options, io); });
}

}  // namespace memplace::cli
