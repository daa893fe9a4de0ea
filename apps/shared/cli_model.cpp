#include "apps/shared/cli_model.hpp"

#include <functional>
#include <vector>

#include "apps/shared/validators.hpp"

namespace memplace::cli {

namespace {

const std::string kMemoryTimeHelp =
    "How a layer's transfers to different memories combine: max (separate ports) or sum (one "
    "shared path)";
// Each registered dynamics' summary (docs/cost-model.md).
std::string dynamics_help() {
  std::string help;
  for (const Dynamics d : Dynamics::all())
    help += (help.empty() ? "" : "; ") + std::string(d.model().summary());
  return help + " (docs/cost-model.md)";
}
const std::string kLookaheadHelp =
    "Streaming: how many layers ahead of its reader a copy may be issued";

CLI::Option* add_memory_time(CLI::App& cmd, std::function<void(MemoryTimeCombine)> set,
                             const std::string& unset) {
  return cmd
      .add_option_function<std::string>(
          "--memory-time",
          [set = std::move(set)](const std::string& rule) { set(*combine_from_name(rule)); },
          kMemoryTimeHelp + "; default: " + unset)
      ->check(CLI::IsMember({"max", "sum"}));
}

CLI::Option* add_dynamics(CLI::App& cmd, std::function<void(Dynamics)> set,
                          const std::string& help) {
  return cmd
      .add_option_function<std::string>(
          "--dynamics",
          [set = std::move(set)](const std::string& name) { set(*dynamics_from_name(name)); }, help)
      ->check(CLI::IsMember(dynamics_names()));
}

CLI::Option* add_lookahead(CLI::App& cmd, std::function<void(std::int64_t)> set,
                           const std::string& unset) {
  return cmd
      .add_option_function<std::int64_t>("--lookahead", std::move(set),
                                         kLookaheadHelp + "; default: " + unset)
      ->transform(whole_number(0, std::uint64_t{1} << 20));
}

}  // namespace

void add_hardware_option(CLI::App& cmd, ModelSpec& model) {
  cmd.add_option("--hardware", model.hardware, "Hardware model: a shipped name or a YAML file")
      ->capture_default_str();
}

void add_model_options(CLI::App& cmd, ModelSpec& model, bool with_dynamics) {
  add_hardware_option(cmd, model);
  add_memory_time(
      cmd, [&model](MemoryTimeCombine rule) { model.memory_time = rule; }, "the hardware model's");
  if (!with_dynamics) return;
  add_dynamics(
      cmd, [&model](Dynamics d) { model.dynamics = d; }, dynamics_help())
      ->default_str(std::string(dynamics_name(model.dynamics)));
  add_lookahead(
      cmd, [&model](std::int64_t layers) { model.lookahead = layers; },
      "the hardware model's dma.lookahead");
}

void ModelOverrides::apply_to(ModelSpec& model) const {
  if (memory_time) model.memory_time = *memory_time;
  if (dynamics) model.dynamics = *dynamics;
  if (lookahead) model.lookahead = *lookahead;
}

void add_model_override_options(CLI::App& cmd, ModelOverrides& overrides,
                                const std::string& unset) {
  add_memory_time(
      cmd, [&overrides](MemoryTimeCombine rule) { overrides.memory_time = rule; },
      unset + ", else the hardware model's");
  add_dynamics(
      cmd, [&overrides](Dynamics d) { overrides.dynamics = d; },
      dynamics_help() + "; default: " + unset + ", else pinned");
  add_lookahead(
      cmd, [&overrides](std::int64_t layers) { overrides.lookahead = layers; },
      unset + ", else the hardware model's");
}

}  // namespace memplace::cli
