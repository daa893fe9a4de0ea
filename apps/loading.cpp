#include "apps/loading.hpp"

namespace memplace::cli {

void SimulatorSpec::add_options(CLI::App& cmd) {
  cmd.add_option("--hardware", hardware, "Hardware model: a shipped name or a YAML file")
      ->capture_default_str();
  cmd.add_option("--memory-time", memory_time,
                 "How a layer's transfers to different memories combine: max (separate ports) or "
                 "sum (one shared path); default: the hardware model's")
      ->check(CLI::IsMember({"max", "sum"}));
}

Simulator SimulatorSpec::build(const std::string& workload) const {
  return build(load_workload(workload));
}

Simulator SimulatorSpec::build(Workload workload) const {
  return build(std::move(workload), load_hardware(hardware));
}

Simulator SimulatorSpec::build(Workload workload, Hardware hw) const {
  SimulatorOptions options;
  if (!memory_time.empty()) options.memory_time = combine_from_name(memory_time);
  return Simulator(std::move(workload), std::move(hw), options);
}

}  // namespace memplace::cli
