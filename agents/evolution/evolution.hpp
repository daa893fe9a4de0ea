// The evolution core of EGRL (docs/agents.md, ea): a population of GNN policies and Boltzmann
// chromosomes, evaluated one generation at a time, then renewed by elitism, tournament
// selection, crossover and mutation. The `ea` agent drives it alone; EGRL adds a learner whose
// actor migrates into the population every generation (migrate()).
//
// A generation: candidates() lists the mappings to score (GNN individuals: the greedy argmax of
// their logits on the observation, one GNN forward pass each, run in parallel; chromosomes: a
// sample of softmax(prior / T)); report() gives each its reward, in any order and batch size;
// once complete(), next_generation() turns fitness (the best reward of an individual's
// evaluations) into the next population.
//
// The memo: the simulator is deterministic, so a mapping scored once is never scored again; its
// reward is remembered (by a 64-bit hash of the mapping) and counts towards the fitness of any
// later individual that proposes it. Every decision of the algorithm is the same with and without
// the memo (the rewards are the same); only the evaluations spent differ.
//
// Slots have fixed kinds: chromosomes in slots 0 .. C-1 (C = floor(boltzmann_ratio x
// population)), GNNs in the rest. Crossover only pairs individuals of one kind.
//
// Randomness: next_generation() draws from one generator, sequentially; everything inside a
// generation (samples, exploration) draws from a stream per individual derived from the seed,
// the generation and the slot. So results do not depend on the number of threads, and save()
// and load() restore a run exactly.
#pragma once

#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "agents/evolution/boltzmann.hpp"
#include "agents/nn/gnn.hpp"
#include "agents/nn/graph_batch.hpp"
#include "base/parallel/process_group.hpp"
#include "base/rng.hpp"
#include "base/state_archive.hpp"
#include "env/observation.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace::agents {

enum class IndividualKind : std::uint8_t { gnn = 0, chromosome = 1 };

struct EvolutionConfig {
  std::size_t population = 20;
  double boltzmann_ratio = 0.5;  // fraction of chromosomes (floored)
  double elite_fraction = 0.1;   // elites = max(2, floor(fraction x population)), < population
  std::size_t tournament = 3;
  double crossover_prob = 0.3;  // for each pair of selected individuals of one kind
  double mutation_prob = 0.85;  // for each non-elite
  double epsilon = 0;           // GNN individuals: per-tensor chance of a uniform memory
  std::size_t samples = 1;      // evaluations per generation of a sampling individual
  bool memo = true;             // remember every scored mapping's reward; never score one twice
  std::size_t hidden = 64;
  std::size_t conv_layers = 3;
  int threads = 1;  // for the GNN forward passes

  // Throws InputError (base/errors.hpp) naming the field ("evolution: tournament must be ...").
  void validate() const;
  std::size_t chromosomes() const;
  std::size_t elites() const;
};

// A mapping to score, and the individual that proposed it (the first one, if several individuals
// proposed the same mapping in one generation: it is scored once).
struct Candidate {
  std::size_t individual = 0;
  Mapping mapping;
};

// What became of migrants, counted when the generation after the migration is selected (as
// EGRL reports its learner's selection rate).
struct MigrationStats {
  std::uint64_t migrants = 0;
  std::uint64_t elite = 0;      // ranked among the elites
  std::uint64_t selected = 0;   // not an elite, but won a tournament
  std::uint64_t discarded = 0;  // neither
};

class Evolution {
 public:
  // Builds the initial population from `seed`: each slot from its own stream (chromosomes:
  // priors U(0, 1), temperatures U(0.1, 10); GNNs: docs/gnn.md's initialisation). `observation`
  // is the single-step env's (the GNNs' input), `memories` the hardware's. With several `ranks`
  // (each building the same Evolution), each runs every ranks-th GNN's forward pass.
  Evolution(EvolutionConfig config, const ObservationView& observation, std::size_t memories,
            std::uint64_t seed, ProcessGroup& ranks = single_process());

  // The mappings this generation needs scored, in slot order; built on the first call of each
  // generation, never empty. With the memo, mappings already scored are left out (their reward
  // is known) and a mapping proposed twice in a generation is listed once; if nothing is left,
  // the generation is selected at once and the next one built (after 20 such generations in a
  // row, the repeats are scored anyway, so that a population stuck on known mappings still
  // proposes something).
  std::span<const Candidate> candidates();
  // The reward of candidates()[index], each once. Throws std::invalid_argument on a bad index, a
  // second report or a reward that is not finite.
  void report(std::size_t index, double reward);
  // Whether every candidate of this generation has its reward.
  bool complete() const;
  // Selection, crossover, mutation, and the pending migrants and seeds: the next generation.
  // Throws std::logic_error unless complete().
  void next_generation();

  // --- EGRL's hooks, applied by the next next_generation() ---
  // A copy of `actor` replaces the worst-ranked non-elite GNN, which takes no part in the
  // selection; the migrant is neither crossed over nor mutated, so the learner's actor is scored
  // as it is. Several calls migrate several actors (distinct slots). Throws
  // std::invalid_argument if the actor's config is not gnn_config(); next_generation() throws
  // std::logic_error if there are fewer non-elite GNN slots than migrants.
  void migrate(const nn::Gnn<float>& actor);
  // The same for a chromosome seeded from `logits` (2N x M, e.g. a GNN's policy logits for the
  // graph; temperatures 1): it replaces the worst-ranked non-elite chromosome.
  void seed_chromosome_from_logits(std::span<const float> logits);
  const MigrationStats& migration_stats() const { return stats_; }
  // The same for the seeded chromosomes (`migrants` counts the seeds).
  const MigrationStats& seeded_chromosome_stats() const { return seed_stats_; }
  // Adds a reward scored elsewhere (EGRL's learner rollouts) to the memo.
  void remember(std::span<const MemoryIndex> mapping, double reward);
  std::size_t memo_size() const { return memo_.size(); }

  // --- Inspection ---
  const EvolutionConfig& config() const { return config_; }
  // The policy GNN's config: the observation's features, hidden, conv_layers, the memories.
  const nn::GnnConfig& gnn_config() const { return gnn_config_; }
  // The observation as a GNN input (a single graph).
  const nn::GraphBatch& batch() const { return batch_; }
  std::uint64_t generation() const { return generation_; }
  std::size_t size() const { return individuals_.size(); }
  IndividualKind kind(std::size_t i) const { return individuals_.at(i).kind; }
  // Throw std::logic_error if slot i holds the other kind.
  const nn::Gnn<float>& gnn(std::size_t i) const;
  const BoltzmannChromosome& chromosome(std::size_t i) const;
  // The fitness of every slot in the last complete generation (empty before the first).
  std::span<const double> fitness() const { return fitness_; }
  // The GNN individual of best fitness over every complete generation (ties: the earlier, then
  // the lower slot), as it was scored: the policy to transfer to other workloads. Before the
  // first generation, the first GNN slot's. champion_fitness() is -inf until then. Throws
  // std::logic_error if there are no GNN slots.
  nn::Gnn<float> champion() const;
  double champion_fitness() const { return champion_fitness_; }

  // Every record is named state_key(prefix, field), so several populations can share one archive.
  void save(StateWriter& out, std::string_view prefix) const;
  // Restores a state saved with the same config and observation; throws std::runtime_error (from
  // the reader) if it does not fit.
  void load(StateReader& in, std::string_view prefix);

 private:
  struct Individual {
    IndividualKind kind = IndividualKind::gnn;
    std::optional<nn::Gnn<float>> gnn;
    BoltzmannChromosome chromosome;
  };

  void prepare(bool score_repeats);
  void compute_fitness();
  std::vector<std::vector<Mapping>> propose_all();
  // Every GNN's mappings into `out`, from the rank that ran it (the g-th GNN in slot order is
  // rank g % ranks's, base/parallel/owner_exchange.hpp); `error` is this rank's failure, if any.
  void swap_gnn_mappings(std::vector<std::vector<Mapping>>& out, const std::exception_ptr& error);
  void select_and_vary();
  void mutate(Individual& individual);
  void cross(Individual& a, Individual& b);
  // A GNN without exploration: one greedy mapping per generation.
  bool deterministic(const Individual& individual) const;

  EvolutionConfig config_;
  nn::GnnConfig gnn_config_;
  nn::GraphBatch batch_;
  std::size_t tensors_ = 0;
  std::uint64_t seed_ = 0;
  Rng rng_;
  ProcessGroup* ranks_ = nullptr;
  std::uint64_t generation_ = 0;
  std::vector<Individual> individuals_;
  std::vector<nn::GnnWorkspace<float>> workspaces_;  // one per thread
  std::unordered_map<std::uint64_t, double> memo_;   // mapping hash -> reward

  // This generation.
  bool prepared_ = false;
  std::vector<Candidate> candidates_;
  std::vector<double> rewards_;                      // NaN until reported
  std::vector<std::vector<std::uint64_t>> sources_;  // per slot: its candidates
  std::vector<double> known_;  // per slot: its best reward from the memo (-inf: none)
  std::size_t unreported_ = 0;
  std::vector<double> fitness_;

  // Pending hooks, and the slots of this generation's migrants and seeded chromosomes.
  std::vector<nn::ParameterSet<float>> migrants_;
  std::optional<nn::ParameterSet<float>> champion_;  // set by next_generation()
  double champion_fitness_ = -std::numeric_limits<double>::infinity();
  std::vector<std::vector<float>> seeds_;
  std::vector<std::uint64_t> migrant_slots_, seed_slots_;
  MigrationStats stats_, seed_stats_;
};

}  // namespace memplace::agents
