// The hyperparameters of the population and of the SAC learner, in one place: their names,
// defaults, help (with the EGRL/CERL source) and ranges. ea and sac take one list each; egrl
// takes both, sharing the GNN's shape (docs/agents.md).
#include <algorithm>

#include "agents/learning_agents.hpp"

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

std::vector<OptionSpec> sac_hyperparameters() {
  return {
      {"hidden", "64", {}, "GNN hidden size (EGRL: 128; halved for wall time)"},
      {"conv_layers", "3", {}, "graph convolution layers of each GNN"},
      {"lr", "0.001", {}, "Adam learning rate of the actor and the critics (EGRL)"},
      {"clip", "5", {}, "global gradient-norm clipping, 0 = none (EGRL)"},
      {"alpha", "0.2", {}, "entropy coefficient, in scaled reward units (EGRL: 0.05)"},
      {"entropy", "mean", {"mean", "sum"}, "alpha weighs the mean or the sum of tensor entropies"},
      {"target_entropy",
       "0",
       {},
       "> 0: alpha tuned (from alpha) towards this share of ln M per tensor; 0: alpha fixed"},
      {"tau", "0.001", {}, "soft target update per gradient step (EGRL)"},
      {"gamma", "0", {}, "0: critic target = scaled reward (one step); > 0: EGRL's bootstrap"},
      {"reward_scale", "5", {}, "rewards are multiplied by this for the critics (EGRL)"},
      {"minibatch", "32", {}, "buffer samples per critic gradient step"},
      {"actor_samples", "2", {}, "actions drawn from the actor per actor gradient step"},
      {"estimator", "local", {"local", "score"}, "actor gradient: local expectation or REINFORCE"},
      {"buffer", "100000", {}, "replay buffer capacity, in mappings (EGRL)"},
      {"learning_starts", "50", {}, "samples in the buffer before the first gradient step (EGRL)"},
      {"grad_per_sample", "0.5", {}, "gradient steps per new sample (EGRL's gradperstep)"}};
}

SacOptions sac_options(const Hyperparameters& h, int threads) {
  SacOptions o;
  o.hidden = static_cast<std::size_t>(h.integer("hidden", 1, 1024));
  o.conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 0, 16));
  o.learning_rate = h.number("lr", 1e-8, 1);
  o.max_grad_norm = h.number("clip", 0, 1e6);
  o.tau = h.number("tau", 1e-6, 1);
  o.alpha = h.number("alpha", 0, 1e3);
  o.entropy_mean = h.text("entropy") == "mean";
  o.target_entropy = h.number("target_entropy", 0, 0.999999);
  o.reward_scale = h.number("reward_scale", 1e-6, 1e6);
  o.gamma = h.number("gamma", 0, 0.9999);
  o.minibatch = static_cast<std::size_t>(h.integer("minibatch", 1, 4096));
  o.actor_samples = static_cast<std::size_t>(h.integer("actor_samples", 1, 1024));
  o.estimator = h.text("estimator") == "score" ? ActorEstimator::score : ActorEstimator::local;
  o.buffer_capacity = static_cast<std::size_t>(h.integer("buffer", 1, 10'000'000));
  o.learning_starts = static_cast<std::size_t>(h.integer("learning_starts", 1, 10'000'000));
  o.gradient_steps_per_sample = h.number("grad_per_sample", 0, 64);
  o.threads = std::max(1, threads);
  o.validate();
  return o;
}

}  // namespace memplace::agents
