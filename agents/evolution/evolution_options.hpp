// The population of ea and egrl (docs/agents.md): its hyperparameters, declared once so the two
// agents document and read them the same way, and the part of a generation they share.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "agents/agent.hpp"
#include "agents/evolution/evolution.hpp"
#include "agents/hyperparameters.hpp"

namespace memplace::agents {

// Names, defaults, help (with the EGRL/CERL source).
std::vector<OptionSpec> evolution_hyperparameters();
EvolutionConfig evolution_config(const Hyperparameters& h, int threads);

Evolution make_evolution(std::string_view agent, const AgentSetup& setup);
// This generation's candidates from `issued` on, at most `limit`; advances `issued`.
std::vector<Mapping> issue_candidates(Evolution& evolution, std::size_t& issued, std::size_t limit);
// The champion GNN, unless the population holds only chromosomes.
std::optional<nn::Gnn<float>> champion_policy(const Evolution& evolution);

}  // namespace memplace::agents
