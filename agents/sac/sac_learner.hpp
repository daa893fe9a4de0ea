// EGRL's learner, discrete soft actor-critic for the single-step (one-step, contextual bandit)
// placement problem: a GNN actor with a factorised categorical policy over the 2N tensors, twin
// GNN Q critics with soft-updated target copies, a fixed entropy coefficient, and a replay
// buffer of (mapping, reward). docs/agents.md (sac) derives the losses and the actor's gradient
// estimator and gives the source of every default.
//
// The `sac` agent drives one SacLearner alone; EGRL feeds it its population's evaluations (add),
// runs its gradient steps each generation (train_for_new_samples), takes its proposals (sample,
// greedy) and copies its actor into the population (actor()).
//
// Deterministic given the seed: the same calls give bit-identical results on any number of
// threads and ranks, and a learner restored by load() continues exactly as the saved one would
// have. Over several ranks (each holding the same learner), each critic's gradient is worked out
// on one rank and sent to the others (docs/scale-out.md, "Training over ranks").
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/nn/adam.hpp"
#include "agents/nn/gnn.hpp"
#include "agents/nn/q_moves.hpp"
#include "agents/sac/replay_buffer.hpp"
#include "base/parallel/process_group.hpp"
#include "base/rng.hpp"
#include "base/state_archive.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace::agents {

// How the actor's gradient of E_a~π[min Q(a)] is estimated (docs/agents.md, sac).
enum class ActorEstimator {
  local,  // per tensor, the exact expectation over its memories with the others sampled
  score,  // score function (REINFORCE) with a leave-one-out baseline
};

struct SacOptions {
  std::size_t hidden = 64;  // EGRL: 128; halved for wall time
  std::size_t conv_layers = 3;
  double learning_rate = 1e-3;  // EGRL, actor and critics
  double max_grad_norm = 5;     // EGRL
  double tau = 1e-3;            // EGRL: soft target update, every gradient step
  double alpha = 0.2;           // entropy coefficient (EGRL: 0.05, see the doc); the start
                                // value when tuned
  // > 0: α is tuned (SAC's automatic temperature) so that π's entropy per tensor approaches
  // target_entropy x ln M; 0: α stays fixed.
  double target_entropy = 0;
  bool entropy_mean = true;       // α weighs the mean per-tensor entropy (false: the sum)
  double reward_scale = 5;        // EGRL
  double gamma = 0;               // 0: the one-step target r; > 0 bootstraps as EGRL's code
  std::size_t minibatch = 32;     // critic minibatch from the buffer
  std::size_t actor_samples = 2;  // actions drawn from π per actor gradient step
  ActorEstimator estimator = ActorEstimator::local;
  std::size_t buffer_capacity = 100000;    // EGRL
  std::size_t learning_starts = 50;        // EGRL: no gradient step before this many samples
  double gradient_steps_per_sample = 0.5;  // EGRL's gradperstep (its value: ours)
  int threads = 1;  // the two critics train in parallel on 2; results never depend on it

  // Throws InputError naming the first bad field.
  void validate() const;
};

// The last gradient step, for logs and tests.
struct SacStats {
  double critic_loss = 0;      // mean over both critics of the MSE to the target (scaled units²)
  double q_mean = 0;           // mean min-Q of the actor's samples (scaled units)
  double entropy = 0;          // of π, per tensor (nats; ln M at most)
  double actor_objective = 0;  // q_mean + the entropy term (α x mean or sum over tensors)
  double alpha = 0;            // α after the step (fixed, or tuned)
};

class SacLearner {
 public:
  // `graph` is the single-step observation (one graph of N nodes); every action is a Mapping of
  // its 2N tensors over `memories` memories. `ranks`: the processes that each hold this same
  // learner and call train() together (a collective then). Throws InputError on bad options.
  SacLearner(nn::GraphBatch graph, std::size_t memories, SacOptions options, std::uint64_t seed,
             ProcessGroup& ranks = single_process());

  // The replay buffer. Add the mapping that was scored (the rectified one, when the environment
  // rectifies) with its environment reward; the learner scales rewards itself.
  void add(std::span<const std::uint8_t> mapping, double reward);
  const ReplayBuffer& buffer() const { return buffer_; }

  // Gradient steps owed for `new_samples` fresh samples: gradient_steps_per_sample each, the
  // fraction carried over, none before the buffer holds learning_starts samples. Returns the
  // number of steps run.
  std::size_t train_for_new_samples(std::size_t new_samples);
  // `steps` gradient steps (a critic step for each critic, then an actor step); throws
  // std::logic_error while the buffer is empty.
  void train(std::size_t steps);
  std::uint64_t gradient_steps() const { return steps_; }
  const SacStats& stats() const { return stats_; }

  // Proposals: `count` mappings drawn from π, each tensor then moved with probability `epsilon`
  // to a uniformly drawn memory (EGRL's noisy rollouts); and π's most likely mapping (argmax per
  // tensor). Proposals have their own random stream: they do not change the training's draws.
  std::vector<Mapping> sample(std::size_t count, double epsilon = 0);
  Mapping greedy();
  // π's logits, 2N x M in Mapping order (EGRL seeds a Boltzmann chromosome from them); valid
  // until the next train() or load().
  std::span<const float> logits();

  // The actor (policy head), to copy into a population; the critics and their targets (Q head).
  const nn::Gnn<float>& actor() const { return actor_; }
  // Before training: the actor starts from a trained network (nn/start_from.hpp: its trunk, and
  // its policy head if it has one), and so do the critics and their targets if it has a Q head (a
  // reward predictor, experiments/generalization/reward_prediction.hpp); otherwise they keep their
  // initialisation.
  void start_from(const nn::Gnn<float>& trained);
  const nn::Gnn<float>& critic(std::size_t k) const { return critics_.at(k); }
  const nn::Gnn<float>& target(std::size_t k) const { return targets_.at(k); }
  // Q of `count` concatenated actions (count x 2N) by critic k, in scaled reward units.
  std::vector<float> q_values(std::size_t k, std::span<const std::uint8_t> actions);

  const nn::GraphBatch& graph() const { return graph_; }
  std::size_t tensors() const { return tensors_; }
  std::size_t memories() const { return memories_; }
  const SacOptions& options() const { return options_; }

  // Over several ranks, train() leaves each rank's copies of the critics it does not own behind
  // (critic k is trained by rank k % ranks alone); this collective brings them up to date, as
  // save(), critic(), target() and q_values() need. Does nothing on one rank or when up to date.
  void share_critics();

  // Records "<prefix>.*": every network, the Adam states, the buffer, both random streams and
  // the counters. load() needs a learner built with the same graph, memories and options.
  // Throws std::logic_error while the critics are behind (share_critics()).
  void save(StateWriter& out, std::string_view prefix) const;
  void load(StateReader& in, std::string_view prefix);

 private:
  void step();
  // Critic k's gradient on the minibatch (into critic_grad_[k]), its loss, and its Q of what the
  // actor step needs; then its Adam step and the soft update of its target.
  void critic_gradient(std::size_t k);
  void update_critic(std::size_t k);
  // Over several ranks: each rank trains the critics it owns (critic k: rank k % ranks) and
  // sends what the actor step needs of them.
  void train_critics_over_ranks();
  void actor_step();
  double entropy_weight() const;  // of the summed entropy: α / 2N or α
  double alpha() const;
  // One Adam step on log α towards the target entropy, from π's entropy per tensor.
  void tune_alpha(double entropy_per_tensor);

  nn::GraphBatch graph_;
  std::size_t memories_;
  std::size_t tensors_;
  SacOptions options_;
  nn::Gnn<float> actor_;
  std::array<nn::Gnn<float>, 2> critics_;
  std::array<nn::Gnn<float>, 2> targets_;
  nn::Adam<float> actor_adam_;
  std::array<nn::Adam<float>, 2> critic_adam_;
  ReplayBuffer buffer_;
  Rng train_rng_;
  Rng propose_rng_;
  ProcessGroup* ranks_;
  std::uint64_t steps_ = 0;
  bool critics_behind_ = false;  // this rank's copies of the others' critics (share_critics)
  double step_credit_ = 0;       // fractional gradient steps owed
  // The tuned temperature: log α and its scalar Adam state (moments, β1^t, β2^t).
  struct AlphaState {
    double log_alpha = 0, m = 0, v = 0, beta1_power = 1, beta2_power = 1;
  } alpha_state_;
  SacStats stats_;

  // Scratch, rebuilt by use (not state).
  nn::GnnWorkspace<float> actor_ws_;
  std::array<nn::GnnWorkspace<float>, 2> critic_ws_, target_ws_;
  std::array<nn::QMovesScratch<float>, 2> moves_scratch_;
  nn::ParameterSet<float> actor_grad_;
  std::array<nn::ParameterSet<float>, 2> critic_grad_;
  std::array<std::vector<float>, 2> actor_q_;  // per critic: Q of the moves, or of the samples
  std::array<std::vector<float>, 2> dq_;
  std::array<std::vector<float>, 2> target_q_;  // per target critic: Q of the actor's samples
  std::array<double, 2> critic_loss_{};
  std::vector<float> dlogits_, min_q_;
  std::vector<double> targets_y_, returns_;
  bool logits_fresh_ = false;
  std::vector<std::uint8_t> actions_;        // minibatch, then the actor's samples
  std::vector<std::uint32_t> sample_graph_;  // all 0: one graph
  std::vector<double> rewards_;
};

}  // namespace memplace::agents
