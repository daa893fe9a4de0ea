#include "env/placement_context.hpp"

#include <atomic>

#include "env/model/references.hpp"

namespace memplace {

namespace {
std::atomic<std::size_t> contexts_made{0};
}  // namespace

std::size_t placement_contexts_made() {
  return contexts_made.load();
}

std::shared_ptr<const PlacementContext> make_placement_context(
    std::shared_ptr<const Simulator> sim) {
  ++contexts_made;
  auto ctx = std::make_shared<PlacementContext>();
  ctx->graph = build_static_graph(*sim);
  ctx->compiler_fs = sim->evaluate(compiler_mapping(*sim)).latency_fs;
  ctx->all_slowest_fs = sim->evaluate(all_slowest_mapping(*sim)).latency_fs;
  ctx->workload_spec = sim->workload().name();
  ctx->hardware_spec = sim->hardware().name;
  ctx->sim = std::move(sim);
  return ctx;
}

std::shared_ptr<const PlacementContext> make_placement_context(const OptionMap& options) {
  SimulatorOptions sim_options;
  const std::string& rule = options.at("memory_time");
  if (rule != "hardware") sim_options.memory_time = combine_from_name(rule);
  auto ctx = std::make_shared<PlacementContext>(*make_placement_context(
      std::make_shared<const Simulator>(load_workload(options.at("workload")),
                                        load_hardware(options.at("hardware")), sim_options)));
  ctx->workload_spec = options.at("workload");
  ctx->hardware_spec = options.at("hardware");
  return ctx;
}

}  // namespace memplace
