#include "agents/evolution/evolution.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "agents/evolution/gnn_operators.hpp"
#include "agents/nn/categorical.hpp"
#include "base/errors.hpp"
#include "base/parallel/owner_exchange.hpp"
#include "base/rng.hpp"

namespace memplace::agents {

namespace {

constexpr std::uint64_t kInitStream = 1;
constexpr std::uint64_t kGenerationStream = 2;
constexpr int kMaxIdleGenerations = 20;
constexpr double kUnreported = std::numeric_limits<double>::quiet_NaN();

// A 64-bit hash of a mapping, 8 bytes at a time through splitmix64.
std::uint64_t mapping_hash(std::span<const MemoryIndex> mapping) {
  std::uint64_t h = splitmix64(mapping.size());
  for (std::size_t i = 0; i < mapping.size(); i += 8) {
    std::uint64_t word = 0;
    for (std::size_t k = i; k < std::min(i + 8, mapping.size()); ++k)
      word |= static_cast<std::uint64_t>(mapping[k]) << (8 * (k - i));
    h = splitmix64(h ^ word);
  }
  return h;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError("evolution: " + message);
}

}  // namespace

void EvolutionConfig::validate() const {
  require(population >= 3, "population must be at least 3, got " + std::to_string(population));
  require(boltzmann_ratio >= 0 && boltzmann_ratio <= 1, "boltzmann_ratio must be in [0, 1]");
  require(elite_fraction >= 0 && elite_fraction <= 1, "elite_fraction must be in [0, 1]");
  require(tournament >= 1 && tournament <= population,
          "tournament must be in 1..population (" + std::to_string(population) + ")");
  require(crossover_prob >= 0 && crossover_prob <= 1, "crossover_prob must be in [0, 1]");
  require(mutation_prob >= 0 && mutation_prob <= 1, "mutation_prob must be in [0, 1]");
  require(epsilon >= 0 && epsilon <= 1, "epsilon must be in [0, 1]");
  require(samples >= 1, "samples must be at least 1");
  require(hidden >= 1 && conv_layers >= 1, "hidden and conv_layers must be at least 1");
  require(threads >= 1, "threads must be at least 1");
}

std::size_t EvolutionConfig::chromosomes() const {
  // A small slack so that 0.3 x 10 counts 3, not 2.9999999.
  return std::min(population, static_cast<std::size_t>(
                                  boltzmann_ratio * static_cast<double>(population) + 1e-9));
}

std::size_t EvolutionConfig::elites() const {
  const auto share =
      static_cast<std::size_t>(elite_fraction * static_cast<double>(population) + 1e-9);
  return std::min(population - 1, std::max<std::size_t>(2, share));
}

Evolution::Evolution(EvolutionConfig config, const ObservationView& observation,
                     std::size_t memories, std::uint64_t seed, ProcessGroup& ranks)
    : config_(config), batch_(observation), seed_(seed), rng_(seed), ranks_(&ranks) {
  config_.validate();
  tensors_ = 2 * observation.num_nodes();
  gnn_config_ = nn::GnnConfig{.input_features = observation.num_features(),
                              .hidden = config_.hidden,
                              .conv_layers = config_.conv_layers,
                              .memories = memories};
  gnn_config_.validate();
  workspaces_.resize(static_cast<std::size_t>(config_.threads));
  const std::size_t chromosomes = config_.chromosomes();
  individuals_.resize(config_.population);
  for (std::size_t i = 0; i < individuals_.size(); ++i) {
    Individual& ind = individuals_[i];
    const std::uint64_t s = derive_seed(seed, {kInitStream, 0, i});
    if (i < chromosomes) {
      ind.kind = IndividualKind::chromosome;
      Rng stream(s);
      ind.chromosome = BoltzmannChromosome(tensors_, gnn_config_.memories, stream);
    } else {
      ind.kind = IndividualKind::gnn;
      ind.gnn.emplace(gnn_config_, s);
    }
  }
}

const nn::Gnn<float>& Evolution::gnn(std::size_t i) const {
  const Individual& ind = individuals_.at(i);
  if (ind.kind != IndividualKind::gnn)
    throw std::logic_error("Evolution: slot " + std::to_string(i) + " holds a chromosome");
  return *ind.gnn;
}

const BoltzmannChromosome& Evolution::chromosome(std::size_t i) const {
  const Individual& ind = individuals_.at(i);
  if (ind.kind != IndividualKind::chromosome)
    throw std::logic_error("Evolution: slot " + std::to_string(i) + " holds a GNN");
  return ind.chromosome;
}

bool Evolution::deterministic(const Individual& individual) const {
  return individual.kind == IndividualKind::gnn && config_.epsilon == 0;
}

// Every slot's mappings for this generation: GNN forward passes in parallel, each thread with its
// own workspace; draws come from the slot's stream only. With several ranks, each rank runs
// every size-th GNN's forward pass (the GNNs cost the same; a chromosome's draws cost next to
// nothing, so every rank draws them all) and the ranks then swap their GNNs' mappings.
std::vector<std::vector<Mapping>> Evolution::propose_all() {
  const std::size_t count = individuals_.size();
  std::vector<std::vector<Mapping>> out(count);
  std::vector<std::size_t> slots;  // this rank's
  std::size_t gnns = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const bool gnn = individuals_[i].kind == IndividualKind::gnn;
    if (!gnn || owns(*ranks_, gnns)) slots.push_back(i);
    gnns += gnn ? 1 : 0;
  }
  std::exception_ptr error;
  const std::size_t memories = gnn_config_.memories;
#pragma omp parallel for num_threads(config_.threads) schedule(dynamic)
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const std::size_t i = slots[k];
    try {
      const Individual& ind = individuals_[i];
      Rng stream(derive_seed(seed_, {kGenerationStream, generation_, i}));
      const std::size_t n = deterministic(ind) ? 1 : config_.samples;
      out[i].assign(n, Mapping(tensors_));
      if (ind.kind == IndividualKind::chromosome) {
        for (Mapping& m : out[i])
          ind.chromosome.sample(stream, m);
        continue;
      }
      nn::GnnWorkspace<float>& ws = workspaces_[static_cast<std::size_t>(omp_get_thread_num())];
      ind.gnn->forward(batch_, ws);
      Mapping greedy(tensors_);
      nn::argmax_rows<float>(ws.logits(), tensors_, memories, greedy);
      for (Mapping& m : out[i]) {
        m = greedy;
        if (config_.epsilon == 0) continue;
        for (MemoryIndex& x : m) {
          if (stream.uniform01() < config_.epsilon)
            x = static_cast<MemoryIndex>(stream.uniform(memories));
        }
      }
    } catch (...) {
#pragma omp critical(memplace_evolution_error)
      if (!error) error = std::current_exception();
    }
  }
  if (ranks_->size() > 1) {
    swap_gnn_mappings(out, error);
  } else if (error) {
    std::rethrow_exception(error);
  }
  return out;
}

void Evolution::swap_gnn_mappings(std::vector<std::vector<Mapping>>& out,
                                  const std::exception_ptr& error) {
  std::vector<std::size_t> gnn_slots;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (individuals_[i].kind == IndividualKind::gnn) gnn_slots.push_back(i);
  }
  // A rank's error goes to every rank through the exchange, so none waits in a later gather.
  exchange_by_owner(
      *ranks_, gnn_slots.size(),
      [&](std::size_t g, std::string& message) {
        if (error) std::rethrow_exception(error);
        for (const Mapping& m : out[gnn_slots[g]])
          append_bytes(message, m.data(), m.size());
      },
      [&](std::size_t g, RankMessage& message) {
        const std::size_t i = gnn_slots[g];
        out[i].assign(deterministic(individuals_[i]) ? 1 : config_.samples, Mapping(tensors_));
        for (Mapping& m : out[i])
          message.take(m.data(), m.size());
      });
  if (error) std::rethrow_exception(error);  // from a slot every rank runs
}

void Evolution::prepare(bool score_repeats) {
  const std::vector<std::vector<Mapping>> proposals = propose_all();
  const std::size_t count = individuals_.size();
  candidates_.clear();
  sources_.assign(count, {});
  known_.assign(count, -std::numeric_limits<double>::infinity());
  std::unordered_map<std::uint64_t, std::size_t> fresh;  // hash -> candidate of this generation
  for (std::size_t i = 0; i < count; ++i) {
    for (const Mapping& m : proposals[i]) {
      if (!config_.memo) {  // every proposal scored, as EGRL does
        sources_[i].push_back(candidates_.size());
        candidates_.push_back(Candidate{i, m});
        continue;
      }
      const std::uint64_t h = mapping_hash(m);
      if (const auto it = memo_.find(h); it != memo_.end() && !score_repeats) {
        known_[i] = std::max(known_[i], it->second);
        continue;
      }
      const auto [it, added] = fresh.try_emplace(h, candidates_.size());
      if (added) candidates_.push_back(Candidate{i, m});
      sources_[i].push_back(it->second);
    }
  }
  rewards_.assign(candidates_.size(), kUnreported);
  unreported_ = candidates_.size();
  prepared_ = true;
}

std::span<const Candidate> Evolution::candidates() {
  if (!prepared_) {
    prepare(false);
    // Nothing new to score: every mapping of the generation is in the memo.
    for (int idle = 1; candidates_.empty(); ++idle) {
      compute_fitness();
      select_and_vary();
      prepare(idle >= kMaxIdleGenerations);
    }
  }
  return candidates_;
}

void Evolution::report(std::size_t index, double reward) {
  if (!prepared_ || index >= candidates_.size())
    throw std::invalid_argument("Evolution::report: no candidate " + std::to_string(index) +
                                " in this generation");
  if (!std::isnan(rewards_[index]))
    throw std::invalid_argument("Evolution::report: candidate " + std::to_string(index) +
                                " was already reported");
  if (!std::isfinite(reward))
    throw std::invalid_argument("Evolution::report: the reward of candidate " +
                                std::to_string(index) + " is not finite");
  rewards_[index] = reward;
  --unreported_;
}

bool Evolution::complete() const {
  return prepared_ && unreported_ == 0;
}

void Evolution::compute_fitness() {
  fitness_ = known_;
  for (std::size_t i = 0; i < individuals_.size(); ++i) {
    for (const std::uint64_t c : sources_[i])
      fitness_[i] = std::max(fitness_[i], rewards_[c]);
  }
  if (!config_.memo) return;
  for (std::size_t c = 0; c < candidates_.size(); ++c)
    memo_.emplace(mapping_hash(candidates_[c].mapping), rewards_[c]);
}

void Evolution::remember(std::span<const MemoryIndex> mapping, double reward) {
  if (mapping.size() != tensors_)
    throw std::invalid_argument("Evolution::remember: a mapping of " +
                                std::to_string(mapping.size()) + " tensors, " +
                                std::to_string(tensors_) + " expected");
  if (config_.memo) memo_.emplace(mapping_hash(mapping), reward);
}

void Evolution::next_generation() {
  if (!complete())
    throw std::logic_error("Evolution::next_generation: the generation is not fully scored");
  compute_fitness();
  for (std::size_t i = 0; i < individuals_.size(); ++i) {
    if (individuals_[i].kind == IndividualKind::gnn &&
        (!champion_ || fitness_[i] > champion_fitness_)) {
      champion_ = individuals_[i].gnn->parameters();
      champion_fitness_ = fitness_[i];
    }
  }
  select_and_vary();
}

nn::Gnn<float> Evolution::champion() const {
  if (champion_) return nn::Gnn<float>(gnn_config_, *champion_);
  for (const Individual& individual : individuals_)
    if (individual.kind == IndividualKind::gnn) return *individual.gnn;
  throw std::logic_error("Evolution::champion: the population has no GNN individuals");
}

void Evolution::migrate(const nn::Gnn<float>& actor) {
  if (!(actor.config() == gnn_config_))
    throw std::invalid_argument("Evolution::migrate: the actor is " + actor.config().to_string() +
                                ", the population's GNNs are " + gnn_config_.to_string());
  migrants_.push_back(actor.parameters());
}

void Evolution::seed_chromosome_from_logits(std::span<const float> logits) {
  if (logits.size() != tensors_ * gnn_config_.memories)
    throw std::invalid_argument(
        "Evolution::seed_chromosome_from_logits: " + std::to_string(logits.size()) + " logits, " +
        std::to_string(tensors_ * gnn_config_.memories) + " expected");
  seeds_.emplace_back(logits.begin(), logits.end());
}

void Evolution::mutate(Individual& individual) {
  if (individual.kind == IndividualKind::gnn)
    gnn_ops::mutate(individual.gnn->parameters(), rng_);
  else
    individual.chromosome.mutate(rng_);
}

void Evolution::cross(Individual& a, Individual& b) {
  if (a.kind == IndividualKind::gnn)
    gnn_ops::crossover(a.gnn->parameters(), b.gnn->parameters(), rng_);
  else
    crossover(a.chromosome, b.chromosome, rng_);
}

// docs/agents.md, ea, "A generation": the steps below in that order, every draw from rng_.
void Evolution::select_and_vary() {
  const std::size_t count = individuals_.size();
  // Rank by fitness, best first; ties go to the lower slot.
  std::vector<std::size_t> rank(count);
  for (std::size_t i = 0; i < count; ++i)
    rank[i] = i;
  std::stable_sort(rank.begin(), rank.end(),
                   [&](std::size_t a, std::size_t b) { return fitness_[a] > fitness_[b]; });
  std::vector<std::uint8_t> elite(count, 0), reserved(count, 0), winner(count, 0);
  for (std::size_t r = 0; r < config_.elites(); ++r)
    elite[rank[r]] = 1;

  // Migrants and seeds take the worst-ranked non-elite slots of their kind; checked before
  // anything changes, so a refusal leaves the state as it was.
  auto reserve = [&](IndividualKind kind) -> std::optional<std::size_t> {
    for (std::size_t r = count; r-- > 0;) {
      const std::size_t s = rank[r];
      if (individuals_[s].kind == kind && !elite[s] && !reserved[s]) {
        reserved[s] = 1;
        return s;
      }
    }
    return std::nullopt;
  };
  std::vector<std::size_t> migrant_slots, seed_slots;
  for (std::size_t k = 0; k < migrants_.size(); ++k) {
    const auto s = reserve(IndividualKind::gnn);
    if (!s)
      throw std::logic_error("Evolution: " + std::to_string(migrants_.size()) +
                             " migrants, but fewer non-elite GNN slots");
    migrant_slots.push_back(*s);
  }
  for (std::size_t k = 0; k < seeds_.size(); ++k) {
    const auto s = reserve(IndividualKind::chromosome);
    if (!s)
      throw std::logic_error("Evolution: " + std::to_string(seeds_.size()) +
                             " seeded chromosomes, but fewer non-elite chromosome slots");
    seed_slots.push_back(*s);
  }
  std::vector<std::size_t> ranked;  // the contestants, best first
  for (const std::size_t s : rank) {
    if (!reserved[s]) ranked.push_back(s);
  }

  // Tournament selection: as many tournaments as slots left after elites and migrants; each
  // winner counts once.
  auto tournament = [&](const std::vector<std::size_t>& pool) {
    std::size_t best = pool.size();
    for (std::size_t k = 0; k < config_.tournament; ++k)
      best = std::min<std::size_t>(best, rng_.uniform(pool.size()));
    return pool[best];
  };
  std::vector<std::size_t> winners;
  const std::size_t free_slots =
      count - config_.elites() - migrant_slots.size() - seed_slots.size();
  for (std::size_t k = 0; k < free_slots; ++k) {
    const std::size_t w = tournament(ranked);
    if (!winner[w]) winners.push_back(w);
    winner[w] = 1;
  }

  // Last generation's migrants and seeded chromosomes, now ranked.
  auto tally = [&](std::span<const std::uint64_t> slots, MigrationStats& stats) {
    for (const std::uint64_t s : slots) {
      ++stats.migrants;
      if (elite[s])
        ++stats.elite;
      else if (winner[s])
        ++stats.selected;
      else
        ++stats.discarded;
    }
  };
  tally(migrant_slots_, stats_);
  tally(seed_slots_, seed_stats_);

  std::vector<Individual> next = individuals_;
  // Selected non-elites of one kind cross over in pairs, in the order they were drawn.
  for (const IndividualKind kind : {IndividualKind::chromosome, IndividualKind::gnn}) {
    std::vector<std::size_t> pool;
    for (const std::size_t w : winners) {
      if (!elite[w] && individuals_[w].kind == kind) pool.push_back(w);
    }
    for (std::size_t k = 0; k + 1 < pool.size(); k += 2) {
      if (rng_.uniform01() < config_.crossover_prob) cross(next[pool[k]], next[pool[k + 1]]);
    }
  }
  // Every other slot: a child of a random elite and a random winner of its own kind (when the
  // elites hold none of that kind, its best; when the winners hold none, a tournament among it).
  for (std::size_t s = 0; s < count; ++s) {
    if (elite[s] || winner[s] || reserved[s]) continue;
    const IndividualKind kind = individuals_[s].kind;
    std::vector<std::size_t> elites_of_kind, winners_of_kind, ranked_of_kind;
    for (const std::size_t r : rank) {
      if (individuals_[r].kind != kind) continue;
      if (elite[r]) elites_of_kind.push_back(r);
      if (!reserved[r]) ranked_of_kind.push_back(r);
    }
    for (const std::size_t w : winners) {
      if (individuals_[w].kind == kind) winners_of_kind.push_back(w);
    }
    const std::size_t a = elites_of_kind.empty()
                              ? ranked_of_kind.front()
                              : elites_of_kind[rng_.uniform(elites_of_kind.size())];
    const std::size_t b = winners_of_kind.empty()
                              ? tournament(ranked_of_kind)
                              : winners_of_kind[rng_.uniform(winners_of_kind.size())];
    Individual other = individuals_[b];
    next[s] = individuals_[a];
    cross(next[s], other);
  }
  // Mutation of every non-elite (migrants and seeds come after, untouched).
  for (std::size_t s = 0; s < count; ++s) {
    if (elite[s] || reserved[s]) continue;
    if (rng_.uniform01() < config_.mutation_prob) mutate(next[s]);
  }
  for (std::size_t k = 0; k < migrant_slots.size(); ++k) {
    Individual& ind = next[migrant_slots[k]];
    ind.gnn.emplace(gnn_config_, std::move(migrants_[k]));
  }
  for (std::size_t k = 0; k < seed_slots.size(); ++k) {
    Individual& ind = next[seed_slots[k]];
    ind.chromosome.seed(seeds_[k]);
  }
  migrants_.clear();
  seeds_.clear();
  migrant_slots_.assign(migrant_slots.begin(), migrant_slots.end());
  seed_slots_.assign(seed_slots.begin(), seed_slots.end());
  individuals_ = std::move(next);
  ++generation_;
  prepared_ = false;
  candidates_.clear();
  rewards_.clear();
  sources_.assign(count, {});
  known_.assign(count, -std::numeric_limits<double>::infinity());
  unreported_ = 0;
}

}  // namespace memplace::agents
