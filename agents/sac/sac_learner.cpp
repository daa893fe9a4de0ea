#include "agents/sac/sac_learner.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>

#include "agents/nn/categorical.hpp"
#include "agents/nn/policy_gradient.hpp"
#include "agents/nn/start_from.hpp"
#include "base/errors.hpp"
#include "base/parallel/owner_exchange.hpp"
#include "base/portable_math.hpp"

namespace memplace::agents {

namespace {

nn::GnnConfig actor_config(const nn::GraphBatch& graph, std::size_t memories, const SacOptions& o) {
  return {.input_features = graph.num_features(),
          .hidden = o.hidden,
          .conv_layers = o.conv_layers,
          .memories = memories,
          .policy_head = true};
}

nn::GnnConfig critic_config(const nn::GraphBatch& graph, std::size_t memories,
                            const SacOptions& o) {
  return {.input_features = graph.num_features(),
          .hidden = o.hidden,
          .conv_layers = o.conv_layers,
          .memories = memories,
          .policy_head = false,
          .q_head = true};
}

// The range a tuned α is kept in, so that log α stays finite.
constexpr double kMinTunedAlpha = 1e-6, kMaxTunedAlpha = 1e3;

// Labels of the learner's streams under its seed: each network and the two random streams.
enum SeedStream : std::uint64_t { kActor, kCritic0, kCritic1, kTrain, kPropose };

nn::GraphBatch checked(nn::GraphBatch graph, std::size_t memories, const SacOptions& options) {
  options.validate();
  if (graph.num_graphs() != 1)
    throw std::invalid_argument("SacLearner: the observation must be one graph, got " +
                                std::to_string(graph.num_graphs()));
  if (memories < 1 || memories > 256)
    throw std::invalid_argument("SacLearner: memories must be in 1..256");
  return graph;
}

// The options that shape the state, to refuse a checkpoint of another learner by name.
std::string fingerprint(const SacOptions& o, std::size_t tensors, std::size_t memories) {
  return "tensors=" + std::to_string(tensors) + " memories=" + std::to_string(memories) +
         " hidden=" + std::to_string(o.hidden) + " conv_layers=" + std::to_string(o.conv_layers) +
         " buffer=" + std::to_string(o.buffer_capacity);
}

void save_adam(StateWriter& out, const std::string& name, const nn::Adam<float>& adam) {
  out.put(name + ".steps", adam.step_count());
  out.put_array<float>(name + ".m", adam.first_moment().values());
  out.put_array<float>(name + ".v", adam.second_moment().values());
}

void load_adam(StateReader& in, const std::string& name, nn::Adam<float>& adam,
               const std::shared_ptr<const nn::ParameterLayout>& layout) {
  const std::uint64_t steps = in.get_u64(name + ".steps");
  nn::ParameterSet<float> m(layout), v(layout);
  in.get_array_into<float>(name + ".m", m.values());
  in.get_array_into<float>(name + ".v", v.values());
  adam.set_state(steps, m, v);
}

}  // namespace

void SacOptions::validate() const {
  auto fail = [](const std::string& what) { throw InputError("sac: " + what); };
  if (hidden < 1 || hidden > 4096) fail("hidden must be in 1..4096");
  if (conv_layers > 64) fail("conv_layers must be in 0..64");
  if (!(learning_rate > 0 && learning_rate <= 1)) fail("learning rate must be in (0, 1]");
  if (!(max_grad_norm >= 0) || !std::isfinite(max_grad_norm))
    fail("gradient clipping norm must be >= 0 (0: none)");
  if (!(tau > 0 && tau <= 1)) fail("tau must be in (0, 1]");
  if (!(alpha >= 0) || !std::isfinite(alpha)) fail("alpha must be >= 0");
  if (!(target_entropy >= 0 && target_entropy < 1))
    fail("target entropy must be in [0, 1) (a share of ln M per tensor; 0: alpha fixed)");
  if (target_entropy > 0 && !(alpha >= kMinTunedAlpha && alpha <= kMaxTunedAlpha))
    fail("a tuned alpha starts from alpha, which must then be in [1e-6, 1000]");
  if (!(reward_scale > 0) || !std::isfinite(reward_scale)) fail("reward scale must be > 0");
  if (!(gamma >= 0 && gamma < 1)) fail("gamma must be in [0, 1)");
  if (minibatch < 1) fail("minibatch must be >= 1");
  if (actor_samples < 1) fail("actor samples must be >= 1");
  if (estimator == ActorEstimator::score && actor_samples < 2)
    fail("the score estimator needs actor samples >= 2 (its baseline is the other samples)");
  if (buffer_capacity < 1) fail("buffer capacity must be >= 1");
  if (!(gradient_steps_per_sample >= 0) || !std::isfinite(gradient_steps_per_sample))
    fail("gradient steps per sample must be >= 0");
  if (threads < 1) fail("threads must be >= 1");
}

SacLearner::SacLearner(nn::GraphBatch graph, std::size_t memories, SacOptions options,
                       std::uint64_t seed, ProcessGroup& ranks)
    : graph_(checked(std::move(graph), memories, options)),
      memories_(memories),
      tensors_(2 * graph_.num_nodes()),
      options_(options),
      actor_(actor_config(graph_, memories, options), derive_seed(seed, {kActor})),
      critics_{
          nn::Gnn<float>(critic_config(graph_, memories, options), derive_seed(seed, {kCritic0})),
          nn::Gnn<float>(critic_config(graph_, memories, options), derive_seed(seed, {kCritic1}))},
      targets_{critics_[0], critics_[1]},
      actor_adam_(actor_.parameters().shared_layout(),
                  {.learning_rate = options.learning_rate, .max_grad_norm = options.max_grad_norm}),
      critic_adam_{nn::Adam<float>(critics_[0].parameters().shared_layout(),
                                   {.learning_rate = options.learning_rate,
                                    .max_grad_norm = options.max_grad_norm}),
                   nn::Adam<float>(critics_[1].parameters().shared_layout(),
                                   {.learning_rate = options.learning_rate,
                                    .max_grad_norm = options.max_grad_norm})},
      buffer_(options.buffer_capacity, tensors_),
      train_rng_(derive_seed(seed, {kTrain})),
      propose_rng_(derive_seed(seed, {kPropose})),
      ranks_(&ranks),
      actor_grad_(actor_.zero_gradients()),
      critic_grad_{critics_[0].zero_gradients(), critics_[1].zero_gradients()} {
  if (options_.target_entropy > 0) alpha_state_.log_alpha = portable::log(options_.alpha);
}

void SacLearner::start_from(const nn::Gnn<float>& trained) {
  nn::start_from(trained, actor_);
  if (!trained.config().q_head) return;
  for (std::size_t k = 0; k < critics_.size(); ++k) {
    nn::start_from(trained, critics_[k]);
    targets_[k] = critics_[k];
  }
}

void SacLearner::add(std::span<const std::uint8_t> mapping, double reward) {
  for (std::uint8_t m : mapping) {
    if (m >= memories_)
      throw std::invalid_argument("SacLearner::add: memory " + std::to_string(m) + " outside 0.." +
                                  std::to_string(memories_ - 1));
  }
  buffer_.add(mapping, reward);
}

std::size_t SacLearner::train_for_new_samples(std::size_t new_samples) {
  if (buffer_.size() < options_.learning_starts) return 0;
  step_credit_ += static_cast<double>(new_samples) * options_.gradient_steps_per_sample;
  const auto steps = static_cast<std::size_t>(std::floor(step_credit_));
  step_credit_ -= static_cast<double>(steps);
  train(steps);
  return steps;
}

void SacLearner::train(std::size_t steps) {
  if (steps > 0 && buffer_.size() == 0)
    throw std::logic_error("SacLearner::train: the replay buffer is empty");
  for (std::size_t s = 0; s < steps; ++s)
    step();
  if (steps > 0 && ranks_->size() > 1) critics_behind_ = true;
}

// One gradient step (docs/agents.md, sac): both critics on a minibatch from the buffer, then the
// actor on K actions of its own, scored by the critics as they were before their update.
void SacLearner::step() {
  const std::size_t T = tensors_, M = memories_, B = options_.minibatch;
  const std::size_t K = options_.actor_samples;
  actor_.forward(graph_, actor_ws_);
  logits_fresh_ = false;  // the actor changes below
  // The minibatch, then the actor's samples, in one action array: each critic scores both in
  // one forward pass (the trunk runs once).
  buffer_.sample(B, train_rng_, actions_, rewards_);
  actions_.resize((B + K) * T);
  for (std::size_t k = 0; k < K; ++k) {
    nn::sample_rows<float>(actor_ws_.logits(), T, M, train_rng_,
                           std::span(actions_).subspan((B + k) * T, T));
  }
  sample_graph_.assign(B + K, 0);

  // One-step target: the scaled reward. With gamma > 0, EGRL's bootstrap from the same graph
  // (no done mask): + gamma (E_π min target Q + α H(π)), estimated from the actor's samples.
  const double entropy = nn::entropy<float>(actor_ws_.logits(), T, M);
  targets_y_.resize(B);
  double bootstrap = 0;
  if (options_.gamma > 0) {
    const nn::QSamples own{std::span(sample_graph_).first(K), std::span(actions_).subspan(B * T)};
    auto score = [&](std::size_t c) {
      targets_[c].forward(graph_, target_ws_[c], own);
      target_q_[c].assign(target_ws_[c].q().begin(), target_ws_[c].q().end());
    };
    if (ranks_->size() == 1) {
      score(0);
      score(1);
    } else {
      exchange_by_owner(
          *ranks_, 2,
          [&](std::size_t c, std::string& out) {
            score(c);
            append_bytes(out, target_q_[c]);
          },
          [&](std::size_t c, RankMessage& in) {
            target_q_[c].resize(K);
            in.take(target_q_[c]);
          });
    }
    double v = 0;
    for (std::size_t k = 0; k < K; ++k)
      v += std::min(target_q_[0][k], target_q_[1][k]);
    bootstrap = options_.gamma * (v / static_cast<double>(K) + entropy_weight() * entropy);
  }
  for (std::size_t b = 0; b < B; ++b)
    targets_y_[b] = options_.reward_scale * rewards_[b] + bootstrap;

  if (ranks_->size() > 1) {
    train_critics_over_ranks();
  } else {
    std::array<std::exception_ptr, 2> errors;
    const int threads = std::min(options_.threads, 2);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int c = 0; c < 2; ++c) {
      try {
        critic_gradient(static_cast<std::size_t>(c));
      } catch (...) {
        errors[static_cast<std::size_t>(c)] = std::current_exception();
      }
    }
    for (const std::exception_ptr& e : errors) {
      if (e) std::rethrow_exception(e);
    }
    for (std::size_t c = 0; c < 2; ++c)
      update_critic(c);
  }
  actor_step();
  if (options_.target_entropy > 0) tune_alpha(entropy / static_cast<double>(T));
  stats_.alpha = alpha();
  stats_.critic_loss = 0.5 * (critic_loss_[0] + critic_loss_[1]);
  stats_.entropy = entropy / static_cast<double>(T);
  stats_.actor_objective = stats_.q_mean + entropy_weight() * entropy;
  ++steps_;
}

void SacLearner::critic_gradient(std::size_t c) {
  const std::span<const double> targets = targets_y_;
  const std::size_t B = options_.minibatch, K = options_.actor_samples;
  const std::size_t T = tensors_, M = memories_;
  nn::GnnWorkspace<float>& ws = critic_ws_[c];
  const nn::QSamples samples{sample_graph_, actions_};
  critics_[c].forward(graph_, ws, samples);
  // What the actor step needs from this critic, before the update.
  if (options_.estimator == ActorEstimator::local) {
    actor_q_[c].resize(K * T * M);
    nn::q_single_moves<float>(critics_[c], graph_, ws, samples, B, K, actor_q_[c],
                              moves_scratch_[c]);
  } else {
    actor_q_[c].assign(ws.q().begin() + static_cast<std::ptrdiff_t>(B), ws.q().end());
  }
  // MSE to the targets over the minibatch; the actor's samples get no gradient.
  dq_[c].assign(B + K, 0.f);
  double loss = 0;
  for (std::size_t b = 0; b < B; ++b) {
    const double error = static_cast<double>(ws.q()[b]) - targets[b];
    loss += error * error;
    dq_[c][b] = static_cast<float>(2 * error / static_cast<double>(B));
  }
  critic_loss_[c] = loss / static_cast<double>(B);
  critic_grad_[c].set_zero();
  critics_[c].backward(graph_, ws, {.q = dq_[c]}, critic_grad_[c], samples);
}

void SacLearner::update_critic(std::size_t c) {
  critic_adam_[c].step(critics_[c].parameters(), critic_grad_[c]);
  // Polyak averaging: target <- (1 - τ) target + τ critic.
  const auto tau = static_cast<float>(options_.tau);
  std::span<float> target = targets_[c].parameters().values();
  std::span<const float> online = critics_[c].parameters().values();
  for (std::size_t i = 0; i < target.size(); ++i)
    target[i] = (1.f - tau) * target[i] + tau * online[i];
}

// Over several ranks, each rank trains the critics it owns and sends the others what the actor
// step needs of them (their Q of the actor's moves, or samples) and their losses. The others'
// copies of a critic fall behind until share_critics(), before a save: a critic is used only by
// its owner in between, so each step exchanges kilobytes instead of a gradient, and no rank
// repeats another's Adam step.
void SacLearner::train_critics_over_ranks() {
  const std::size_t q_size = options_.estimator == ActorEstimator::local
                                 ? options_.actor_samples * tensors_ * memories_
                                 : options_.actor_samples;
  exchange_by_owner(
      *ranks_, 2,
      [&](std::size_t c, std::string& out) {
        critic_gradient(c);
        update_critic(c);
        append_bytes(out, actor_q_[c]);
        append_bytes(out, &critic_loss_[c], sizeof(double));
      },
      [&](std::size_t c, RankMessage& in) {
        actor_q_[c].resize(q_size);
        in.take(actor_q_[c]);
        in.take(&critic_loss_[c], sizeof(double));
      });
}

// Brings every rank's copy of each critic, its target and its Adam state to its owner's.
void SacLearner::share_critics() {
  if (!critics_behind_) return;
  critics_behind_ = false;
  exchange_by_owner(
      *ranks_, 2,
      [&](std::size_t c, std::string& out) {
        const std::uint64_t adam_steps = critic_adam_[c].step_count();
        append_bytes(out, &adam_steps, sizeof adam_steps);
        append_bytes(out, critics_[c].parameters().values());
        append_bytes(out, targets_[c].parameters().values());
        append_bytes(out, critic_adam_[c].first_moment().values());
        append_bytes(out, critic_adam_[c].second_moment().values());
      },
      [&](std::size_t c, RankMessage& in) {
        std::uint64_t adam_steps = 0;
        in.take(&adam_steps, sizeof adam_steps);
        in.take(critics_[c].parameters().values());
        in.take(targets_[c].parameters().values());
        const auto& layout = critics_[c].parameters().shared_layout();
        nn::ParameterSet<float> m(layout), v(layout);
        in.take(m.values());
        in.take(v.values());
        critic_adam_[c].set_state(adam_steps, m, v);
      });
}

// Gradient of −(E_π[min Q] + α H(π)) with respect to the logits, then one Adam step.
void SacLearner::actor_step() {
  const std::size_t T = tensors_, M = memories_, B = options_.minibatch;
  const std::size_t K = options_.actor_samples;
  const std::span<const float> logits = actor_ws_.logits();
  dlogits_.assign(T * M, 0.f);
  double q_sum = 0;
  if (options_.estimator == ActorEstimator::local) {
    // Per sample, Q of every single-tensor move, the smaller of the two critics.
    min_q_.resize(T * M);
    for (std::size_t k = 0; k < K; ++k) {
      const std::size_t first = k * T * M;
      for (std::size_t i = 0; i < T * M; ++i)
        min_q_[i] = std::min(actor_q_[0][first + i], actor_q_[1][first + i]);
      nn::local_expectation_backward<float>(logits, T, M, min_q_, -1.0 / static_cast<double>(K),
                                            dlogits_);
      q_sum += min_q_[actions_[(B + k) * T]];  // tensor 0 as sampled: Q(a_k)
    }
  } else {
    returns_.resize(K);
    for (std::size_t k = 0; k < K; ++k) {
      returns_[k] = std::min(actor_q_[0][k], actor_q_[1][k]);
      q_sum += returns_[k];
    }
    nn::score_function_backward<float>(logits, T, M, std::span(actions_).subspan(B * T), returns_,
                                       -1.0, dlogits_);
  }
  stats_.q_mean = q_sum / static_cast<double>(K);
  nn::entropy_backward<float>(logits, T, M, -entropy_weight(), dlogits_);
  actor_grad_.set_zero();
  actor_.backward(graph_, actor_ws_, {.logits = dlogits_}, actor_grad_);
  actor_adam_.step(actor_.parameters(), actor_grad_);
}

double SacLearner::alpha() const {
  return options_.target_entropy > 0 ? portable::exp(alpha_state_.log_alpha) : options_.alpha;
}

double SacLearner::entropy_weight() const {
  return options_.entropy_mean ? alpha() / static_cast<double>(tensors_) : alpha();
}

// SAC's temperature loss α (H(π) − H̄), on log α as SB3 and the SAC authors' code: its gradient
// is H(π) − H̄ (per tensor here). Adam as nn::Adam, with the actor's learning rate.
void SacLearner::tune_alpha(double entropy_per_tensor) {
  constexpr double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  const double target = options_.target_entropy * portable::log(static_cast<double>(memories_));
  const double g = entropy_per_tensor - target;
  AlphaState& a = alpha_state_;
  a.m = beta1 * a.m + (1 - beta1) * g;
  a.v = beta2 * a.v + (1 - beta2) * g * g;
  a.beta1_power *= beta1;
  a.beta2_power *= beta2;
  const double step = options_.learning_rate * (a.m / (1 - a.beta1_power)) /
                      (std::sqrt(a.v / (1 - a.beta2_power)) + epsilon);
  a.log_alpha =
      std::clamp(a.log_alpha - step, portable::log(kMinTunedAlpha), portable::log(kMaxTunedAlpha));
}

std::span<const float> SacLearner::logits() {
  if (!logits_fresh_) {
    actor_.forward(graph_, actor_ws_);
    logits_fresh_ = true;
  }
  return actor_ws_.logits();
}

std::vector<Mapping> SacLearner::sample(std::size_t count, double epsilon) {
  if (!(epsilon >= 0 && epsilon <= 1))
    throw std::invalid_argument("SacLearner::sample: epsilon must be in [0, 1]");
  const std::span<const float> z = logits();
  std::vector<Mapping> out(count, Mapping(tensors_));
  for (Mapping& m : out) {
    nn::sample_rows<float>(z, tensors_, memories_, propose_rng_, m);
    if (epsilon == 0) continue;
    for (MemoryIndex& x : m) {
      if (propose_rng_.uniform01() < epsilon)
        x = static_cast<MemoryIndex>(propose_rng_.uniform(memories_));
    }
  }
  return out;
}

Mapping SacLearner::greedy() {
  Mapping m(tensors_);
  nn::argmax_rows<float>(logits(), tensors_, memories_, m);
  return m;
}

std::vector<float> SacLearner::q_values(std::size_t k, std::span<const std::uint8_t> actions) {
  if (critics_behind_)
    throw std::logic_error("SacLearner::q_values: call share_critics() on every rank first");
  if (actions.size() % tensors_ != 0)
    throw std::invalid_argument("SacLearner::q_values: " + std::to_string(actions.size()) +
                                " action entries is not a whole number of mappings of " +
                                std::to_string(tensors_));
  const std::vector<std::uint32_t> graph(actions.size() / tensors_, 0);
  nn::GnnWorkspace<float>& ws = critic_ws_.at(k);
  critics_.at(k).forward(graph_, ws, {graph, actions});
  return {ws.q().begin(), ws.q().end()};
}

void SacLearner::save(StateWriter& out, std::string_view prefix) const {
  if (critics_behind_)
    throw std::logic_error("SacLearner::save: call share_critics() on every rank first");
  out.put(state_key(prefix, "fingerprint"), fingerprint(options_, tensors_, memories_));
  out.put_array<float>(state_key(prefix, "actor"), actor_.parameters().values());
  save_adam(out, state_key(prefix, "actor_adam"), actor_adam_);
  for (std::size_t c = 0; c < 2; ++c) {
    const std::string n = std::to_string(c);
    out.put_array<float>(state_key(prefix, "critic" + n), critics_[c].parameters().values());
    out.put_array<float>(state_key(prefix, "target" + n), targets_[c].parameters().values());
    save_adam(out, state_key(prefix, "critic" + n + "_adam"), critic_adam_[c]);
  }
  buffer_.save(out, state_key(prefix, "buffer"));
  out.put(state_key(prefix, "train_rng"), train_rng_);
  out.put(state_key(prefix, "propose_rng"), propose_rng_);
  out.put(state_key(prefix, "steps"), steps_);
  out.put(state_key(prefix, "step_credit"), step_credit_);
  const std::vector<double> stats = {stats_.critic_loss, stats_.q_mean, stats_.entropy,
                                     stats_.actor_objective, stats_.alpha};
  out.put_array<double>(state_key(prefix, "stats"), stats);
  const AlphaState& a = alpha_state_;
  out.put_array<double>(state_key(prefix, "alpha"),
                        std::vector<double>{a.log_alpha, a.m, a.v, a.beta1_power, a.beta2_power});
}

void SacLearner::load(StateReader& in, std::string_view prefix) {
  const std::string expected = fingerprint(options_, tensors_, memories_);
  const std::string found = in.get_text(state_key(prefix, "fingerprint"));
  if (found != expected)
    throw std::runtime_error(in.source() + ": the SAC learner was saved with " + found +
                             ", this one has " + expected);
  in.get_array_into<float>(state_key(prefix, "actor"), actor_.parameters().values());
  load_adam(in, state_key(prefix, "actor_adam"), actor_adam_, actor_.parameters().shared_layout());
  for (std::size_t c = 0; c < 2; ++c) {
    const std::string n = std::to_string(c);
    in.get_array_into<float>(state_key(prefix, "critic" + n), critics_[c].parameters().values());
    in.get_array_into<float>(state_key(prefix, "target" + n), targets_[c].parameters().values());
    load_adam(in, state_key(prefix, "critic" + n + "_adam"), critic_adam_[c],
              critics_[c].parameters().shared_layout());
  }
  buffer_.load(in, state_key(prefix, "buffer"));
  critics_behind_ = false;
  train_rng_ = in.get_rng(state_key(prefix, "train_rng"));
  propose_rng_ = in.get_rng(state_key(prefix, "propose_rng"));
  steps_ = in.get_u64(state_key(prefix, "steps"));
  step_credit_ = in.get_f64(state_key(prefix, "step_credit"));
  const std::vector<double> stats = in.get_array<double>(state_key(prefix, "stats"));
  if (stats.size() != 5)
    throw std::runtime_error(in.source() + ": record '" + state_key(prefix, "stats") + "' has " +
                             std::to_string(stats.size()) + " values, expected 5");
  stats_ = {stats[0], stats[1], stats[2], stats[3], stats[4]};
  const std::vector<double> a = in.get_array<double>(state_key(prefix, "alpha"));
  if (a.size() != 5 || !std::all_of(a.begin(), a.end(), [](double x) { return std::isfinite(x); }))
    throw std::runtime_error(in.source() + ": record '" + state_key(prefix, "alpha") +
                             "' is not 5 finite values");
  alpha_state_ = {a[0], a[1], a[2], a[3], a[4]};
  logits_fresh_ = false;
}

}  // namespace memplace::agents
