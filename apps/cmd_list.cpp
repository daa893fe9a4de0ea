// memplace list: the shipped workloads and hardware models.
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/text_table.hpp"
#include "env/hardware.hpp"
#include "env/workload.hpp"

namespace memplace::cli {

void add_list_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand("list", "List the shipped workloads and hardware models");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON instead of tables");
  cmd->callback([io, json] {
    nlohmann::json doc;
    TextTable workloads({"workload", "layers", "edges", "MACs", "weights", "description"});
    for (const std::string& name : embedded_workload_names()) {
      const Workload w = load_workload(name);
      workloads.add_row({name, std::to_string(w.size()), std::to_string(w.num_edges()),
                         format_count(static_cast<double>(w.total_macs())),
                         format_bytes(static_cast<double>(w.total_weight_bytes())),
                         w.info().description});
      doc["workloads"].push_back({{"name", name},
                                  {"layers", w.size()},
                                  {"edges", w.num_edges()},
                                  {"macs", w.total_macs()},
                                  {"weight_bytes", w.total_weight_bytes()}});
    }
    TextTable hardware({"hardware", "memories", "description"});
    for (const std::string& name : embedded_hardware_names()) {
      const Hardware hw = load_hardware(name);
      std::string memories;
      for (const Memory& m : hw.memories) {
        memories += (memories.empty() ? "" : ", ") + m.name + " " +
                    format_bytes(static_cast<double>(m.capacity_bytes));
      }
      hardware.add_row({name, memories, hw.description});
      doc["hardware"].push_back({{"name", name}, {"memories", hw.memories.size()}});
    }
    if (*json) {
      io.out << doc.dump(2) << "\n";
      return;
    }
    workloads.print(io.out);
    io.out << "\n";
    hardware.print(io.out);
  });
}

}  // namespace memplace::cli
