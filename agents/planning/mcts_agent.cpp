// mcts: plans every decision of an episode with the Gumbel tree search
// (planning/gumbel_search.hpp) on the env's exact clone — the sequential env under v0 and v1, the
// malloc env under v2 — plays the action it picks, and proposes the best complete episode
// it saw, played or reached inside a search. The GNN's policy head is the search's prior
// (planning/mcts_network.hpp; sequential env only), trained after every episode toward the
// searches' improved policies; with prior=uniform, the plain search. Its searches' steps are
// charged against the budget, an episode's worth of steps as one evaluation (docs/agents.md,
// "Budget"), so it is compared with the others on equal terms.
#include <algorithm>
#include <optional>

#include "agents/planning/gumbel_search.hpp"
#include "agents/planning/mcts_network.hpp"
#include "agents/registry.hpp"
#include "base/errors.hpp"
#include "base/rng.hpp"
#include "env/malloc/malloc_env.hpp"
#include "env/sequential_env.hpp"
#include "env/spaces.hpp"
#include "model/references.hpp"

namespace memplace::agents {
namespace {

// The env's placement order, from the agent's `order` hyperparameter.
SequentialOptions env_options(const AgentSetup& setup) {
  const Hyperparameters h("mcts", setup.hyperparameters);
  SequentialOptions options;
  options.order = h.text("order") == "msa" ? PlacementOrder::msa : PlacementOrder::schedule;
  return options;
}

// The game an episode plays: the sequential env (a memory per tensor) under v0 and v1; under v2,
// the addressed dynamics, the malloc env (a memory and an address per tensor).
std::unique_ptr<Env> make_env(const AgentSetup& setup) {
  const ModelVersion version = setup.context->version;
  if (version == ModelVersion::v2)
    return std::make_unique<MallocEnv>("memplace/malloc-v2", setup.context, env_options(setup));
  return std::make_unique<SequentialEnv>(
      "memplace/sequential-" + std::string(version_name(version)), setup.context,
      env_options(setup));
}

// A state's mapping so far, in either game.
std::span<const MemoryIndex> mapping_of(const Env& env) {
  if (const auto* game = dynamic_cast<const MallocEnv*>(&env)) return game->mapping();
  return dynamic_cast<const SequentialEnv&>(env).mapping();
}

class MctsAgent final : public Agent {
 public:
  explicit MctsAgent(const AgentSetup& setup) : rng_(setup.seed), env_(make_env(setup)) {
    const Hyperparameters h("mcts", setup.hyperparameters);
    options_.simulations = static_cast<int>(h.integer("simulations", 1, 100'000));
    options_.considered = static_cast<int>(h.integer("considered", 1, 1024));
    options_.c_visit = h.number("c_visit", 0, 1e9);
    options_.c_scale = h.number("c_scale", 0, 1e9);
    start_from_best_ = h.text("start") == "best";
    sequential_ = dynamic_cast<SequentialEnv*>(env_.get());
    // The malloc env starts every episode with nothing placed, and the GNN prior reads the
    // sequential env's observation.
    if (sequential_ == nullptr && start_from_best_)
      throw InputError(
          "agent 'mcts': start=best needs the sequential env (env versions v0, v1); under v2 "
          "it plays the malloc env, whose episodes start with nothing placed: use -p "
          "start=slowest");
    if (sequential_ == nullptr && h.text("prior") == "gnn")
      throw InputError(
          "agent 'mcts': prior=gnn reads the sequential env's observation (env versions v0, v1); "
          "under v2 (the malloc env) use prior=uniform");
    options_.complete_states = start_from_best_;
    if (start_from_best_) best_ = compiler_mapping(*setup.context->sim);
    // The network's options are checked with every prior, so that a bad one is never ignored.
    const planning::MctsNetworkOptions network{
        .hidden = static_cast<std::size_t>(h.integer("hidden", 1, 4096)),
        .conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 0, 16)),
        .learning_rate = h.number("lr", 1e-9, 1),
        .batch = static_cast<std::size_t>(h.integer("batch", 1, 4096)),
        .updates = static_cast<std::size_t>(h.integer("updates", 0, 4096)),
        .replay = static_cast<std::size_t>(h.integer("replay", 1, 1'000'000)),
        .samples = static_cast<std::size_t>(h.integer("samples", 0, 1'000'000))};
    if (h.text("prior") == "gnn")
      network_.emplace(env_->reset(0).obs, setup.context->sim->num_memories(), network,
                       derive_seed(setup.seed, {kLearnerSeedStream}));
  }

  std::vector<Mapping> propose(std::size_t limit) override {
    // An episode's searches step at most `simulations` cloned states per decision, `simulations`
    // evaluations in all: cut to what the limit leaves beside the proposal. With none left, each
    // decision is a uniform draw among the allowed actions — but with start=best, where starting
    // costs an episode's steps, the best mapping seen is proposed as it is.
    if (start_from_best_ && limit < 2) return {best_};
    planning::GumbelOptions options = options_;
    options.simulations = static_cast<int>(std::min<std::uint64_t>(
        static_cast<std::uint64_t>(options.simulations), limit - (start_from_best_ ? 2 : 1)));
    const ResetResult start = start_episode();
    ObservationView obs = start.obs;
    double speedup = start.info.speedup;
    Mapping episode_best;
    double episode_best_speedup = -std::numeric_limits<double>::infinity();
    const double keep = network_ ? static_cast<double>(network_->options().samples) /
                                       static_cast<double>(env_->episode_length())
                                 : 0.0;
    const planning::Evaluator prior = [&](const Env& state) {
      return network_->prior(dynamic_cast<const SequentialEnv&>(state).current_tensor());
    };
    for (bool done = false; !done;) {
      std::int64_t action = -1;
      if (options.simulations > 0) {
        if (network_) network_->read(obs);
        planning::SearchResult r = planning::gumbel_search(
            *env_, network_ ? prior : planning::Evaluator(planning::uniform_evaluation), options,
            rng_);
        steps_ += r.model_steps;
        if (r.best_state && speedup + r.best_return > episode_best_speedup) {
          episode_best_speedup = speedup + r.best_return;
          const std::span<const MemoryIndex> state = mapping_of(*r.best_state);
          episode_best.assign(state.begin(), state.end());
        }
        if (network_ && rng_.uniform01() < keep)
          network_->remember(obs, sequential_->current_tensor(), r.improved_policy);
        action = r.action;
      } else {
        action = Discrete{static_cast<std::int64_t>(obs.action_mask.size())}.sample(
            rng_, obs.action_mask);
      }
      const StepResult step = env_->step(action);
      speedup += step.reward;
      obs = step.obs;
      done = step.terminated || step.truncated;
    }
    if (network_) loss_ = network_->train(rng_);
    ++episodes_;
    if (speedup >= episode_best_speedup) {
      episode_best_speedup = speedup;
      const std::span<const MemoryIndex> played = mapping_of(*env_);
      episode_best.assign(played.begin(), played.end());
    }
    if (episode_best_speedup > best_speedup_) {
      best_speedup_ = episode_best_speedup;
      if (start_from_best_) best_ = episode_best;
    }
    return {episode_best};
  }

  // Resets the env, to the best mapping seen with start=best (an episode's worth of steps).
  ResetResult start_episode() {
    if (!start_from_best_) return env_->reset(0);
    steps_ += env_->episode_length();
    return sequential_->reset_to(best_);
  }

  void learn(std::span<const Mapping>, std::span<const Outcome>) override {}

  std::uint64_t take_model_evaluations() override {
    const std::uint64_t episodes = steps_ / env_->episode_length();
    steps_ -= episodes * env_->episode_length();  // the rest is charged when it makes an episode
    return episodes;
  }

  void save(StateWriter& out) const override {
    out.put("mcts.rng", rng_);
    out.put("mcts.steps", steps_);
    out.put("mcts.episodes", episodes_);
    out.put("mcts.best_speedup", best_speedup_);
    out.put_array<MemoryIndex>("mcts.best", best_);
    out.put("mcts.loss", loss_);
    if (network_) network_->save(out);
  }
  void load(StateReader& in) override {
    rng_ = in.get_rng("mcts.rng");
    steps_ = in.get_u64("mcts.steps");
    episodes_ = in.get_u64("mcts.episodes");
    best_speedup_ = in.get_f64("mcts.best_speedup");
    best_ = in.get_array<MemoryIndex>("mcts.best");
    loss_ = in.get_f64("mcts.loss");
    if (network_) network_->load(in);
  }

  std::string status() const override {
    return "episode " + std::to_string(episodes_) + ", best speedup seen " +
           std::to_string(best_speedup_);
  }

 private:
  Rng rng_;
  std::unique_ptr<Env> env_;
  SequentialEnv* sequential_ = nullptr;  // env_ when it is the sequential env, else null
  planning::GumbelOptions options_;
  std::optional<planning::MctsNetwork> network_;  // none with prior=uniform
  double loss_ = 0;                               // the last episode's policy loss
  std::uint64_t steps_ = 0;  // cloned-state steps not yet charged (less than an episode's)
  std::uint64_t episodes_ = 0;
  double best_speedup_ = -std::numeric_limits<double>::infinity();  // the best state's seen
  // start=best: the mapping the next episode starts from (the best seen; first the compiler's).
  bool start_from_best_ = false;
  Mapping best_;
};

}  // namespace

AgentInfo mcts_agent() {
  AgentInfo info{
      "mcts",
      "Gumbel tree search on the sequential env's exact dynamics at every decision (under v2, "
      "the malloc env's), the GNN as its prior, trained by self-play",
      {"sequential"},
      {{"simulations", "16", {}, "simulations per decision, each one step of a cloned state"},
       {"considered", "16", {}, "actions drawn at the root (Gumbel top-k)"},
       {"c_visit", "50", {}, "σ(q̂)'s visit offset"},
       {"c_scale", "0.1", {}, "σ(q̂)'s scale"},
       {"order", "schedule", {"schedule", "msa"}, "the sequential env's placement order"},
       {"start",
        "best",
        {"best", "slowest"},
        "where the tensors not yet placed wait: where the best mapping seen puts them, the "
        "compiler's at first (each episode improves it), or the slowest memory (the "
        "mallocGame)"},
       {"prior",
        "uniform",
        {"uniform", "gnn"},
        "the search's prior: uniform, or the GNN's policy trained by self-play"},
       {"hidden", "32", {}, "GNN width"},
       {"conv_layers", "2", {}, "GNN graph convolutions"},
       {"lr", "0.001", {}, "Adam learning rate"},
       {"batch", "16", {}, "decisions per Adam step"},
       {"updates", "4", {}, "Adam steps after each episode"},
       {"replay", "1024", {}, "decisions kept for training (the oldest go first)"},
       {"samples", "32", {}, "decisions kept from each episode, on average"}},
      [](const AgentSetup& setup) { return std::make_unique<MctsAgent>(setup); },
      ToyOptimumClaim{.budget = 3000, .hyperparameters = {{"simulations", "256"}}},
      /*starts_from_policy=*/false};
  info.versions = {ModelVersion::v0, ModelVersion::v1, ModelVersion::v2};
  // Its search grows faster than the graph (resnet50 4.9 s, resnet101 14.5 s, bert-base 59.8 s at
  // 20,000 evaluations: about tensors^1.33).
  info.run_cost = {.seconds_per_tensor = 0.0090, .fixed_tensors = 0, .exponent = 1.33};
  return info;
}

}  // namespace memplace::agents
