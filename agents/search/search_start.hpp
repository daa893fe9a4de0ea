// Where the local searches (sa, greedy-dp) start: their `start` hyperparameter.
#pragma once

#include "agents/agent.hpp"
#include "agents/hyperparameters.hpp"

namespace memplace::agents {

// "slowest", every tensor in the slowest memory (where the EGRL paper's baselines start), or
// "compiler", the compiler mapping of the run's dynamics (the streaming-aware one under v1) — the
// mapping a practitioner refines.
OptionSpec search_start_option();
Mapping search_start_mapping(const AgentSetup& setup, const Hyperparameters& h);

}  // namespace memplace::agents
