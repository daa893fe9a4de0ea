// ppo: proximal policy optimisation with a GNN actor-critic over the single-step env
// (docs/agents-ppo.md), EGRL's policy-gradient baseline.
#pragma once

#include "agents/registry.hpp"

namespace memplace::agents {

AgentInfo ppo_agent_info();

}  // namespace memplace::agents
