#include "env/placement_context.hpp"

#include <atomic>
#include <stdexcept>

#include "env/errors.hpp"
#include "env/model/references.hpp"

namespace memplace {

namespace {
std::atomic<std::size_t> contexts_made{0};
}  // namespace

std::size_t placement_contexts_made() {
  return contexts_made.load();
}

namespace {

std::shared_ptr<PlacementContext> make_context(std::shared_ptr<const Simulator> sim,
                                               bool streaming_features) {
  ++contexts_made;
  auto ctx = std::make_shared<PlacementContext>();
  ctx->graph = build_static_graph(*sim, streaming_features);
  ctx->compiler_fs = sim->evaluate(compiler_mapping(*sim)).latency_fs;
  ctx->all_slowest_fs = sim->evaluate(all_slowest_mapping(*sim)).latency_fs;
  ctx->model_options = {{"workload", sim->workload().name()},
                        {"hardware", sim->hardware().name},
                        {"memory_time", std::string(combine_name(sim->memory_time()))}};
  ctx->sim = std::move(sim);
  return ctx;
}

std::int64_t parse_lookahead(const std::string& value) {
  std::size_t used = 0;
  long long n = -1;
  try {
    n = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || n < 0 || value.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("option lookahead: expected 'hardware' or a non-negative integer, got '" +
                     value + "'");
  return n;
}

}  // namespace

std::shared_ptr<const PlacementContext> make_placement_context(
    std::shared_ptr<const Simulator> sim) {
  return make_context(std::move(sim), false);
}

std::shared_ptr<const PlacementContext> make_placement_context(const OptionMap& options) {
  SimulatorOptions sim_options;
  const std::string& rule = options.at("memory_time");
  if (rule != "hardware") sim_options.memory_time = combine_from_name(rule);
  Hardware hardware = load_hardware(options.at("hardware"));
  const auto dynamics = options.find("dynamics");
  const bool v1 = dynamics != options.end();
  if (v1) {
    sim_options.dynamics = dynamics_from_name(dynamics->second).value_or(Dynamics::streaming);
    const std::string& lookahead = options.at("lookahead");
    if (lookahead != "hardware") hardware.dma.lookahead = parse_lookahead(lookahead);
  }
  auto ctx = make_context(std::make_shared<const Simulator>(load_workload(options.at("workload")),
                                                            std::move(hardware), sim_options),
                          v1);
  ctx->model_options["workload"] = options.at("workload");
  ctx->model_options["hardware"] = options.at("hardware");
  if (v1) {
    ctx->model_options["dynamics"] = dynamics->second;
    ctx->model_options["lookahead"] = options.at("lookahead");
  }
  return ctx;
}

}  // namespace memplace
