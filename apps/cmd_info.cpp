// memplace info WORKLOAD: the shape of a workload and the latencies of its reference mappings.
#include <map>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/shared/cli_model.hpp"
#include "apps/shared/reference_report.hpp"
#include "apps/shared/text_table.hpp"

namespace memplace::cli {

namespace {

struct InfoOptions {
  std::string workload = "resnet50";
  ModelSpec model;
  bool json = false;
};

void run_info(const InfoOptions& o, Streams io) {
  ModelSpec model = o.model;
  model.workload = o.workload;
  const Simulator sim = model.build();
  const Workload& w = sim.workload();
  const optimum::Headroom headroom = optimum::headroom(sim);
  const std::vector<ReferenceRow> refs = reference_rows(headroom, sim);
  std::map<std::string, std::size_t> ops;
  for (const Layer& l : w.layers())
    ++ops[std::string(op_name(l.op))];

  if (o.json) {
    nlohmann::json doc = {
        {"workload", w.name()},
        {"description", w.info().description},
        {"hardware", sim.hardware().name},
        {"memory_time", std::string(combine_name(sim.memory_time()))},
        {"layers", w.size()},
        {"edges", w.num_edges()},
        {"tensors", sim.num_tensors()},
        {"macs", w.total_macs()},
        {"weight_bytes", w.total_weight_bytes()},
        {"activation_bytes", w.total_output_bytes()},
        {"peak_live_activation_bytes", w.peak_live_activation_bytes()},
        {"ops", ops},
        {"references", reference_json(refs)},
    };
    if (const auto& c = headroom.certificate)
      doc["optimum_status"] = std::string(optimum::status_name(c->status));
    io.out << doc.dump(2) << "\n";
    return;
  }
  io.out << w.name() << ": " << w.info().description << "\n\n";
  TextTable shape({"property", "value"});
  shape.add_row({"layers", std::to_string(w.size())});
  shape.add_row({"edges", std::to_string(w.num_edges())});
  shape.add_row({"tensors to place", std::to_string(sim.num_tensors())});
  shape.add_row({"MACs", format_count(static_cast<double>(w.total_macs()))});
  shape.add_row({"weight bytes", format_bytes(static_cast<double>(w.total_weight_bytes()))});
  shape.add_row({"activation bytes", format_bytes(static_cast<double>(w.total_output_bytes()))});
  shape.add_row(
      {"peak live activations", format_bytes(static_cast<double>(w.peak_live_activation_bytes()))});
  std::string op_list;
  for (const auto& [op, count] : ops) {
    op_list += (op_list.empty() ? "" : ", ") + op + " " + std::to_string(count);
  }
  shape.add_row({"ops", op_list});
  shape.print(io.out);
  io.out << "\nReference mappings on " << sim.hardware().name
         << " (memory time: " << combine_name(sim.memory_time()) << "):\n\n";
  TextTable table({"mapping", "latency (us)", "speedup over compiler"});
  for (const ReferenceRow& r : refs) {
    table.add_row(
        {r.name, format_fixed(to_microseconds(r.latency_fs), 2), format_fixed(r.speedup, 4)});
  }
  table.print(io.out);
  io.out << "\n" << optimum_note(sim, headroom.certificate, model) << "\n";
}

}  // namespace

void add_info_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand("info", "Describe a workload and its reference mappings");
  auto options = std::make_shared<InfoOptions>();
  cmd->add_option("workload", options->workload, "A shipped workload name or a workload YAML file")
      ->capture_default_str();
  add_model_options(*cmd, options->model);
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->callback([io, options] { run_info(*options, io); });
}

}  // namespace memplace::cli
