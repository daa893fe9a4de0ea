#include "agents/search/search_start.hpp"
#include "model/references.hpp"

namespace memplace::agents {

OptionSpec search_start_option() {
  return {"start",
          "slowest",
          {"slowest", "compiler"},
          "the first mapping: every tensor in the slowest memory, or the compiler's (the "
          "streaming-aware one under v1)"};
}

Mapping search_start_mapping(const AgentSetup& setup, const Hyperparameters& h) {
  const Simulator& sim = *setup.context->sim;
  if (h.text("start") == "compiler") return compiler_mapping(sim);
  return all_slowest_mapping(sim);
}

}  // namespace memplace::agents
