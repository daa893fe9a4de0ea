// sac: EGRL's learner alone, discrete soft actor-critic without a population (the paper's
// policy-gradient ablation). docs/agents-sac.md describes it and its hyperparameters.
#pragma once

#include "agents/registry.hpp"

namespace memplace::agents {

AgentInfo sac_agent_info();

}  // namespace memplace::agents
