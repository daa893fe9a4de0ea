// The agents without a neural network: random, greedy-dp (EGRL's dynamic-programming baseline)
// and sa (simulated annealing). docs/agents.md describes each and its hyperparameters.
#pragma once

#include "agents/registry.hpp"

namespace memplace::agents {

AgentInfo random_agent_info();
AgentInfo greedy_dp_agent_info();
AgentInfo annealing_agent_info();

// The local searches' (sa, greedy-dp) `start` hyperparameter: "slowest", every tensor in the
// slowest memory (where the EGRL paper's baselines start), or "compiler", the compiler mapping of
// the run's dynamics (the streaming-aware one under v1) — the mapping a practitioner refines.
OptionSpec search_start_option();
Mapping search_start_mapping(const AgentSetup& setup, const Hyperparameters& h);

}  // namespace memplace::agents
