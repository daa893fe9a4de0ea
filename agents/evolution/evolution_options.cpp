#include "agents/evolution/evolution_options.hpp"

#include <algorithm>

namespace memplace::agents {

std::vector<OptionSpec> evolution_hyperparameters() {
  return {
      {"population", "20", {}, "individuals per generation (EGRL code: 20)"},
      {"boltzmann_ratio",
       "0.5",
       {},
       "fraction of the population that are Boltzmann chromosomes, the rest GNN policies"},
      {"elite_fraction",
       "0.1",
       {},
       "fraction of the population kept unchanged, at least 2 (EGRL code: 0.1)"},
      {"tournament", "3", {}, "tournament size of the selection (EGRL code: 3)"},
      {"crossover_prob",
       "0.3",
       {},
       "chance that a pair of selected individuals crosses over (EGRL code: 0.3)"},
      {"mutation_prob", "0.85", {}, "chance that a non-elite is mutated (EGRL code: 0.85)"},
      {"epsilon",
       "0",
       {},
       "GNN individuals: per-tensor chance of a uniform memory instead of the greedy one "
       "(EGRL: 0, greedy)"},
      {"samples",
       "1",
       {},
       "evaluations per generation of a sampling individual (chromosomes; GNNs if epsilon > 0); "
       "fitness is the best (EGRL code: 1)"},
      {"memo",
       "true",
       {"true", "false"},
       "remember every scored mapping's reward and never pay twice for one (the simulator is "
       "deterministic; the search is the same either way)"},
      {"hidden", "64", {}, "GNN hidden size (EGRL: 128; 64 for wall time)"},
      {"conv_layers", "3", {}, "GNN graph convolution layers (EGRL: U-Net depth 3)"}};
}

Evolution make_evolution(std::string_view agent, const AgentSetup& setup) {
  return Evolution(
      evolution_config(Hyperparameters(std::string(agent), setup.hyperparameters), setup.threads),
      setup.observation.view(), setup.context->sim->num_memories(), setup.seed, *setup.ranks);
}

std::vector<Mapping> issue_candidates(Evolution& evolution, std::size_t& issued,
                                      std::size_t limit) {
  const std::span<const Candidate> candidates = evolution.candidates();
  const std::size_t end = std::min(candidates.size(), issued + limit);
  std::vector<Mapping> out;
  for (std::size_t c = issued; c < end; ++c)
    out.push_back(candidates[c].mapping);
  issued = end;
  return out;
}

std::optional<nn::Gnn<float>> champion_policy(const Evolution& evolution) {
  if (evolution.config().chromosomes() == evolution.size()) return std::nullopt;
  return evolution.champion();
}

EvolutionConfig evolution_config(const Hyperparameters& h, int threads) {
  EvolutionConfig c;
  c.population = static_cast<std::size_t>(h.integer("population", 3, 4096));
  c.boltzmann_ratio = h.number("boltzmann_ratio", 0, 1);
  c.elite_fraction = h.number("elite_fraction", 0, 1);
  c.tournament = static_cast<std::size_t>(h.integer("tournament", 1, 4096));
  c.crossover_prob = h.number("crossover_prob", 0, 1);
  c.mutation_prob = h.number("mutation_prob", 0, 1);
  c.epsilon = h.number("epsilon", 0, 1);
  c.samples = static_cast<std::size_t>(h.integer("samples", 1, 1024));
  c.memo = h.flag("memo");
  c.hidden = static_cast<std::size_t>(h.integer("hidden", 1, 4096));
  c.conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 1, 64));
  c.threads = std::max(1, threads);
  return c;
}

}  // namespace memplace::agents
