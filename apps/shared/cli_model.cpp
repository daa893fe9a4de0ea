#include "apps/shared/cli_model.hpp"

namespace memplace::cli {

void add_model_options(CLI::App& cmd, ModelSpec& model, bool with_dynamics) {
  cmd.add_option("--hardware", model.hardware, "Hardware model: a shipped name or a YAML file")
      ->capture_default_str();
  cmd.add_option_function<std::string>(
         "--memory-time",
         [&model](const std::string& rule) { model.memory_time = combine_from_name(rule); },
         "How a layer's transfers to different memories combine: max (separate ports) or sum "
         "(one shared path); default: the hardware model's")
      ->check(CLI::IsMember({"max", "sum"}));
  if (!with_dynamics) return;
  cmd.add_option_function<std::string>(
         "--dynamics",
         [&model](const std::string& name) { model.dynamics = *dynamics_from_name(name); },
         "pinned (cost model v0: every tensor read from its home), streaming (v1: a DMA "
         "prefetches reads into free faster memory) or addressed (v2: v1 where on-chip tensors "
         "and staging buffers need address ranges; docs/cost-model.md)")
      ->check(CLI::IsMember({"pinned", "streaming", "addressed"}))
      ->default_str(std::string(dynamics_name(model.dynamics)));
  cmd.add_option_function<std::int64_t>(
         "--lookahead", [&model](std::int64_t layers) { model.lookahead = layers; },
         "Streaming: how many layers ahead of its reader a copy may be issued; default: the "
         "hardware model's dma.lookahead")
      ->transform(whole_number(0, std::uint64_t{1} << 20));
}

}  // namespace memplace::cli
