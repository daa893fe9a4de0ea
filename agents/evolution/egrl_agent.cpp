// egrl: Evolutionary Graph Reinforcement Learning (Khadka et al., ICLR 2021; docs/agents.md). The
// EA's population (agents/evolution/evolution.hpp) and a discrete-SAC learner
// (agents/sac/sac_learner.hpp) share one replay buffer: every mapping the population or the learner
// has scored trains the learner. Each generation:
//   1. the population's candidates are scored;
//   2. the learner's own rollouts are scored: `learner_samples` mappings drawn from its actor
//      with `learner_noise` tensors moved at random, and its greedy mapping (EGRL rolls out noisy
//      and greedy); the population's memo learns their rewards too;
//   3. the learner takes its gradient steps for the new samples;
//   4. its actor migrates into the population (replacing the worst non-elite GNN; unless
//      migrate_actor is false) and, with seed_chromosomes, a Boltzmann chromosome is seeded from
//      the actor's logits;
//   5. the next generation is bred.
#include <algorithm>
#include <cstdio>

#include "agents/evolution/evolution_options.hpp"
#include "agents/registry.hpp"
#include "agents/sac/sac_options.hpp"

namespace memplace::agents {
namespace {

constexpr const char* kEgrlName = "egrl";

class EgrlAgent final : public Agent {
 public:
  explicit EgrlAgent(const AgentSetup& setup)
      : evolution_(make_evolution(kEgrlName, setup)),
        learner_(nn::GraphBatch(setup.observation.view()), setup.context->sim->num_memories(),
                 sac_options(Hyperparameters(kEgrlName, setup.hyperparameters), setup.threads),
                 derive_seed(setup.seed, {kLearnerSeedStream}), *setup.ranks) {
    // The learner starts from the trained network; its actor migrates into the population.
    if (setup.initial_policy) learner_.start_from(*setup.initial_policy);
    const Hyperparameters h(kEgrlName, setup.hyperparameters);
    learner_samples_ = static_cast<std::size_t>(h.integer("learner_samples", 0, 4096));
    // Expected moves per noisy rollout, whatever the workload's size.
    learner_epsilon_ =
        std::min(1.0, h.number("learner_noise", 0, 1e6) / static_cast<double>(learner_.tensors()));
    seed_chromosomes_ = h.flag("seed_chromosomes");
    migrate_actor_ = h.flag("migrate_actor");
    shared_replay_ = h.text("replay") == "shared";
  }

  std::vector<Mapping> propose(std::size_t limit) override {
    if (phase_ == Phase::population) return issue_candidates(evolution_, issued_, limit);
    std::vector<Mapping> out;
    // The learner's rollouts: noisy samples, then the greedy mapping.
    if (rollouts_.empty()) {
      rollouts_ = learner_.sample(learner_samples_, learner_epsilon_);
      rollouts_.push_back(learner_.greedy());
    }
    const std::size_t end = std::min(rollouts_.size(), issued_ + limit);
    for (std::size_t r = issued_; r < end; ++r)
      out.push_back(rollouts_[r]);
    issued_ = end;
    return out;
  }

  void learn(std::span<const Mapping>, std::span<const Outcome> outcomes) override {
    for (const Outcome& o : outcomes) {
      if (shared_replay_ || phase_ == Phase::learner) {
        learner_.add(o.scored, o.reward);
        ++new_samples_;
      }
      if (phase_ == Phase::population)
        evolution_.report(reported_, o.reward);
      else
        evolution_.remember(o.scored, o.reward);
      ++reported_;
    }
    if (phase_ == Phase::population && evolution_.complete()) {
      phase_ = Phase::learner;
      issued_ = reported_ = 0;
    } else if (phase_ == Phase::learner && reported_ == rollouts_.size()) {
      end_generation();
    }
  }

  void gather_over_ranks() override { learner_.share_critics(); }

  void save(StateWriter& out) const override {
    evolution_.save(out, "egrl.ea");
    learner_.save(out, "egrl.sac");
    out.put("egrl.phase", static_cast<std::uint64_t>(phase_));
    out.put("egrl.issued", static_cast<std::uint64_t>(issued_));
    out.put("egrl.reported", static_cast<std::uint64_t>(reported_));
    out.put("egrl.new_samples", static_cast<std::uint64_t>(new_samples_));
    std::vector<std::uint8_t> flat;
    for (const Mapping& m : rollouts_)
      flat.insert(flat.end(), m.begin(), m.end());
    out.put("egrl.rollouts", static_cast<std::uint64_t>(rollouts_.size()));
    out.put_array<std::uint8_t>("egrl.rollout_mappings", flat);
  }

  void load(StateReader& in) override {
    evolution_.load(in, "egrl.ea");
    learner_.load(in, "egrl.sac");
    phase_ = static_cast<Phase>(in.get_u64("egrl.phase"));
    issued_ = in.get_u64("egrl.issued");
    reported_ = in.get_u64("egrl.reported");
    new_samples_ = in.get_u64("egrl.new_samples");
    const std::size_t count = in.get_u64("egrl.rollouts");
    const std::vector<std::uint8_t> flat = in.get_array<std::uint8_t>("egrl.rollout_mappings");
    rollouts_.clear();
    const std::size_t tensors = learner_.tensors();
    if (flat.size() != count * tensors) throw std::runtime_error(in.source() + ": bad rollouts");
    for (std::size_t r = 0; r < count; ++r)
      rollouts_.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(r * tensors),
                             flat.begin() + static_cast<std::ptrdiff_t>((r + 1) * tensors));
  }

  std::string status() const override {
    const MigrationStats& m = evolution_.migration_stats();
    const MigrationStats& seeded = evolution_.seeded_chromosome_stats();
    char text[256];
    std::snprintf(
        text, sizeof text,
        "generation %llu, %llu gradient steps, migrants elite %llu/%llu (selected %llu), "
        "seeded chromosomes elite %llu/%llu (selected %llu)",
        static_cast<unsigned long long>(evolution_.generation()),
        static_cast<unsigned long long>(learner_.gradient_steps()),
        static_cast<unsigned long long>(m.elite), static_cast<unsigned long long>(m.migrants),
        static_cast<unsigned long long>(m.selected), static_cast<unsigned long long>(seeded.elite),
        static_cast<unsigned long long>(seeded.migrants),
        static_cast<unsigned long long>(seeded.selected));
    return text;
  }

  // The population's champion, as EGRL transfers (the learner's actor competes in it).
  std::optional<nn::Gnn<float>> policy() const override { return champion_policy(evolution_); }

 private:
  enum class Phase : std::uint8_t { population = 0, learner = 1 };

  void end_generation() {
    learner_.train_for_new_samples(new_samples_);
    new_samples_ = 0;
    if (migrate_actor_) evolution_.migrate(learner_.actor());
    if (seed_chromosomes_ && evolution_.config().chromosomes() > 0)
      evolution_.seed_chromosome_from_logits(learner_.logits());
    evolution_.next_generation();
    phase_ = Phase::population;
    issued_ = reported_ = 0;
    rollouts_.clear();
  }

  Evolution evolution_;
  SacLearner learner_;
  std::size_t learner_samples_ = 2;
  double learner_epsilon_ = 0;
  bool seed_chromosomes_ = true;
  bool migrate_actor_ = true;
  bool shared_replay_ = true;  // every scored mapping trains the learner, not only its own
  Phase phase_ = Phase::population;
  std::size_t issued_ = 0, reported_ = 0;
  std::size_t new_samples_ = 0;
  std::vector<Mapping> rollouts_;
};

}  // namespace

AgentInfo egrl_agent() {
  std::vector<OptionSpec> specs = evolution_hyperparameters();
  for (OptionSpec& spec : sac_hyperparameters()) {
    const bool shared = std::any_of(specs.begin(), specs.end(),
                                    [&](const OptionSpec& s) { return s.name == spec.name; });
    if (!shared) specs.push_back(std::move(spec));  // hidden, conv_layers: one GNN shape for both
  }
  specs.push_back({"learner_samples",
                   "2",
                   {},
                   "mappings sampled from the learner's actor each "
                   "generation (plus its greedy mapping)"});
  specs.push_back({"learner_noise",
                   "10",
                   {},
                   "noisy rollouts: expected tensors then moved to a "
                   "uniform memory"});
  specs.push_back({"seed_chromosomes",
                   "true",
                   {"true", "false"},
                   "seed a Boltzmann chromosome from the actor's logits every generation"});
  specs.push_back({"migrate_actor",
                   "true",
                   {"true", "false"},
                   "a copy of the actor replaces the worst non-elite GNN every generation"});
  specs.push_back({"replay",
                   "shared",
                   {"shared", "own"},
                   "what trains the learner: every mapping scored (shared) or only its own "
                   "rollouts (own)"});
  AgentInfo info{
      kEgrlName,
      "EGRL: the EA's population plus a discrete-SAC learner on a shared replay buffer, its "
      "actor migrated into the population every generation",
      {"single-step"},
      std::move(specs),
      [](const AgentSetup& setup) { return std::make_unique<EgrlAgent>(setup); },
      // 5000 evaluations, against ea's 3000: the learner's rollouts take about a sixth of the
      // budget. Hidden size 32 for the suite's time: the default 64 reaches the optimum of
      // these runs too, in 4-6x the time.
      ToyOptimumClaim{.budget = 5000, .hyperparameters = {{"hidden", "32"}}},
      /*starts_from_policy=*/true};
  info.run_cost = {.seconds_per_tensor = 0.118};
  info.has_policy = true;
  return info;
}

}  // namespace memplace::agents
