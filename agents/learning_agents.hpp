// The agents with a neural network or a population of them (docs/agents.md describes each and
// its hyperparameters):
//   ea   EGRL's evolution without learners;
//   ppo  proximal policy optimisation with a GNN actor-critic, EGRL's policy-gradient baseline;
//   sac  EGRL's learner alone, discrete soft actor-critic (the paper's ablation);
//   egrl the EA's population and the SAC learner on one replay buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "agents/evolution.hpp"
#include "agents/registry.hpp"
#include "agents/sac_learner.hpp"

namespace memplace::agents {

AgentInfo ea_agent_info();
AgentInfo ppo_agent_info();
AgentInfo sac_agent_info();
AgentInfo egrl_agent_info();

// The hyperparameters the population (ea, egrl) and the SAC learner (sac, egrl) are configured
// by, declared once so the agents that share them document and read them the same way.
std::vector<OptionSpec> evolution_hyperparameters();
EvolutionConfig evolution_config(const Hyperparameters& h, int threads);

// The population of ea and egrl, and the part of a generation they share: proposing its
// candidates in batches, the champion as the agent's policy.
Evolution make_evolution(std::string_view agent, const AgentSetup& setup);
// This generation's candidates from `issued` on, at most `limit`; advances `issued`.
std::vector<Mapping> issue_candidates(Evolution& evolution, std::size_t& issued, std::size_t limit);
// The champion GNN, unless the population holds only chromosomes.
std::optional<nn::Gnn<float>> champion_policy(const Evolution& evolution);
std::vector<OptionSpec> sac_hyperparameters();
SacOptions sac_options(const Hyperparameters& h, int threads);

// The label of the learner's seed under the run's seed (derive_seed) in agents whose learner is
// not their only random stream (egrl beside its population, ppo beside its sampling generator).
inline constexpr std::uint64_t kLearnerSeedStream = 3;

}  // namespace memplace::agents
