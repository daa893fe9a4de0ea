#include "apps/loading.hpp"

namespace memplace::cli {

void SimulatorSpec::add_options(CLI::App& cmd, bool with_dynamics) {
  cmd.add_option("--hardware", hardware, "Hardware model: a shipped name or a YAML file")
      ->capture_default_str();
  cmd.add_option("--memory-time", memory_time,
                 "How a layer's transfers to different memories combine: max (separate ports) or "
                 "sum (one shared path); default: the hardware model's")
      ->check(CLI::IsMember({"max", "sum"}));
  if (!with_dynamics) return;
  cmd.add_option("--dynamics", dynamics,
                 "pinned (cost model v0: every tensor read from its home) or streaming (v1: a DMA "
                 "prefetches reads into free faster memory; docs/cost-model.md)")
      ->check(CLI::IsMember({"pinned", "streaming"}))
      ->capture_default_str();
  cmd.add_option("--lookahead", lookahead,
                 "Streaming: how many layers ahead of its reader a copy may be issued; default: "
                 "the hardware model's dma.lookahead")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
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
  options.dynamics = dynamics_from_name(dynamics).value_or(Dynamics::pinned);
  if (lookahead) hw.dma.lookahead = *lookahead;
  return Simulator(std::move(workload), std::move(hw), options);
}

}  // namespace memplace::cli
