// The agents without a neural network: random, greedy-dp (EGRL's dynamic-programming baseline)
// and sa (simulated annealing). docs/agents.md describes each and its hyperparameters.
#pragma once

#include "agents/registry.hpp"

namespace memplace::agents {

AgentInfo random_agent_info();
AgentInfo greedy_dp_agent_info();
AgentInfo annealing_agent_info();

}  // namespace memplace::agents
