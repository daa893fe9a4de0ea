// The agent interface: an agent proposes whole mappings and learns from how they scored. The
// trainer (agents/training/trainer.hpp) owns everything else — the evaluation budget, the seed, the
// clock, the run folder and the checkpoints — so every agent is compared on the same terms.
//
// An agent's life is a loop of propose() and learn() calls. Between a learn() and the next
// propose() its whole state can be saved and restored (save/load), and a restored agent
// continues exactly as the saved one would have: that is what makes resumed runs identical to
// uninterrupted ones.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "agents/nn/gnn.hpp"
#include "base/parallel/process_group.hpp"
#include "base/state_archive.hpp"
#include "env/env.hpp"
#include "env/observation.hpp"
#include "env/placement_context.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace::agents {

// One proposal as the trainer scored it through the single-step environment.
struct Outcome {
  double reward = 0;   // the environment's reward (its reward and invalid options)
  double speedup = 0;  // of the scored mapping over the compiler (as if it fitted, if invalid)
  bool valid = false;  // whether the proposed mapping fitted
  bool rectified = false;
  Mapping scored;         // the mapping scored: the proposal, or its rectified version
  TimeFs latency_fs = 0;  // of the scored mapping
};

// Everything an agent is built from.
struct AgentSetup {
  std::shared_ptr<const PlacementContext> context;  // simulator, compiler reference
  Observation observation;   // the single-step environment's observation after reset
  std::uint64_t seed = 0;    // of the run; an agent derives its streams from it (derive_seed)
  std::uint64_t budget = 0;  // evaluations the trainer will grant in all
  int threads = 1;           // for the agent's own parallel work (results never depend on it)
  // The job's ranks, each running this same agent (agents/training/trainer.hpp): an agent may share
  // its own batch work over them (ea and egrl: the population's forward passes), gathering the
  // results in a fixed order so that they never depend on the ranks either.
  ProcessGroup* ranks = &single_process();
  std::string env = "single-step";  // how to build mappings (sequential: masked rollouts)
  OptionMap hyperparameters;        // resolved against the agent's specs (agents/registry.hpp)
  // A trained network to start the agent's GNN from (fine-tuning; nn/start_from.hpp), for the
  // agents whose AgentInfo says starts_from_policy; none: the usual initialisation.
  std::shared_ptr<const nn::Gnn<float>> initial_policy;
};

// The label of the learner's seed under the run's seed (derive_seed) in agents whose learner is
// not their only random stream (egrl beside its population, ppo beside its sampling generator).
inline constexpr std::uint64_t kLearnerSeedStream = 3;

class Agent {
 public:
  virtual ~Agent() = default;
  // Mappings to evaluate next, between 1 and `limit` of them (the budget left, capped by the
  // trainer's batch limit).
  virtual std::vector<Mapping> propose(std::size_t limit) = 0;
  // How the last proposals scored, in the same order.
  virtual void learn(std::span<const Mapping> proposals, std::span<const Outcome> outcomes) = 0;
  // The agent's whole state (not its setup, which the trainer rebuilds from config.yaml).
  virtual void save(StateWriter& out) const = 0;
  virtual void load(StateReader& in) = 0;
  // Evaluations the agent has spent on its own model since the last call: a planning agent's
  // searches step cloned environments, and every episode's worth of steps counts as one
  // evaluation (docs/agents.md, "Budget"). The trainer charges them against the budget beside the
  // proposals it scores; they are part of the saved state until taken.
  virtual std::uint64_t take_model_evaluations() { return 0; }
  // A collective the trainer runs on every rank before rank 0 saves the agent (a checkpoint, the
  // run's end): an agent that lets the ranks keep parts of its state apart between saves brings
  // them together (sac and egrl: each critic is trained on one rank). Most agents have nothing to
  // do.
  virtual void gather_over_ranks() {}
  // A line of agent-specific progress for logs ("generation 12, temperature 0.31"); may be empty.
  virtual std::string status() const { return {}; }
  // The agent's best GNN policy so far (its policy head reads the single-step observation of any
  // workload on the same hardware), for zero-shot transfer (memplace transfer); none for agents
  // without one. ea and egrl: the population's champion; ppo and sac: the actor.
  virtual std::optional<nn::Gnn<float>> policy() const { return std::nullopt; }
};

}  // namespace memplace::agents
