// The agents with a neural network or a population of them: ea (EGRL's evolution without
// learners). docs/agents.md describes each and its hyperparameters.
#pragma once

#include "agents/registry.hpp"

namespace memplace::agents {

AgentInfo ea_agent_info();

}  // namespace memplace::agents
