// The SAC learner's hyperparameters (sac, and egrl's learner; docs/agents.md), declared once so the
// two agents document and read them the same way.
#pragma once

#include <vector>

#include "agents/hyperparameters.hpp"
#include "agents/sac/sac_learner.hpp"

namespace memplace::agents {

// Names, defaults, help (with the EGRL source).
std::vector<OptionSpec> sac_hyperparameters();
SacOptions sac_options(const Hyperparameters& h, int threads);

}  // namespace memplace::agents
