// ppo: each propose() samples a rollout of `batch` mappings from the GNN policy (one forward
// pass); each learn() turns their rewards into advantages (r - V, normalised) and runs `epochs`
// passes of clipped-surrogate updates over `minibatches` shuffled minibatches, one forward and one
// backward per minibatch (agents/policy_gradient/ppo_loss.hpp). The whole state — network, Adam's
// moments, the generator, counters and any rollout not yet learned from — is checkpointed, so a
// resumed run is bit-identical.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "agents/nn/start_from.hpp"
#include "agents/policy_gradient/ppo_learner.hpp"
#include "agents/registry.hpp"
#include "base/errors.hpp"

namespace memplace::agents {
namespace {

constexpr const char* kPpoName = "ppo";

struct Settings {
  std::size_t batch = 0;
  bool greedy = false;
  PpoOptions learner;
};

Settings read_settings(const OptionMap& values) {
  const Hyperparameters h(kPpoName, values);
  Settings s;
  s.batch = static_cast<std::size_t>(h.integer("batch", 2, 4096));
  s.greedy = h.flag("greedy");
  PpoOptions& o = s.learner;
  o.hidden = static_cast<std::size_t>(h.integer("hidden", 1, 4096));
  o.conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 0, 64));
  o.lr = h.number("lr", 1e-8, 1);
  o.max_grad_norm = h.number("max_grad_norm", 0, 1e9);
  o.epochs = static_cast<std::size_t>(h.integer("epochs", 1, 1000));
  o.minibatches = static_cast<std::size_t>(h.integer("minibatches", 1, 4096));
  o.normalize_advantage = h.flag("normalize_advantage");
  o.anneal_lr = h.flag("anneal_lr");
  o.anneal_entropy = h.flag("anneal_entropy");
  o.loss.clip_range = h.number("clip_range", 1e-6, 1);
  o.loss.ent_coef = h.number("ent_coef", 0, 1e3);
  o.loss.vf_coef = h.number("vf_coef", 0, 1e3);
  // The greedy mapping is scored but not learned from (it was not drawn from the policy).
  const std::size_t learned = s.batch - (s.greedy ? 1 : 0);
  if (o.minibatches > learned)
    throw InputError("agent 'ppo': hyperparameter minibatches=" + std::to_string(o.minibatches) +
                     " exceeds the " + std::to_string(learned) +
                     " sampled mappings of a batch (batch=" + std::to_string(s.batch) +
                     (s.greedy ? ", one of them greedy" : "") + ")");
  return s;
}

class PpoAgent final : public Agent {
 public:
  explicit PpoAgent(const AgentSetup& setup)
      : settings_(read_settings(setup.hyperparameters)),
        rng_(setup.seed),
        budget_(setup.budget),
        learner_(setup.observation.view(), setup.context->sim->num_memories(), settings_.learner,
                 derive_seed(setup.seed, {kLearnerSeedStream})) {
    if (setup.initial_policy) nn::start_from(*setup.initial_policy, learner_.network());
  }

  std::vector<Mapping> propose(std::size_t limit) override {
    learner_.forward();
    std::vector<Mapping> out;
    std::size_t count = std::min(limit, settings_.batch);
    greedy_pending_ = settings_.greedy && count > 1;
    if (greedy_pending_) {
      out.push_back(learner_.argmax());
      --count;
    }
    learner_.sample(count, rng_, rollout_, out);
    return out;
  }

  void learn(std::span<const Mapping> proposals, std::span<const Outcome> outcomes) override {
    const std::size_t skip = greedy_pending_ ? 1 : 0;
    if (outcomes.size() != rollout_.size() + skip || proposals.size() != outcomes.size())
      throw std::logic_error("ppo: learn() does not answer the last propose()");
    rollout_.reward.clear();
    for (std::size_t b = skip; b < outcomes.size(); ++b)
      rollout_.reward.push_back(outcomes[b].reward);
    // The share of the budget left before this batch: every batch but the run's last is full.
    const double spent = static_cast<double>(updates_ * settings_.batch);
    const double remaining = budget_ > 0 ? 1.0 - spent / static_cast<double>(budget_) : 1.0;
    stats_ = learner_.update(rollout_, rng_, remaining);
    ++updates_;
    rollout_.clear();
    greedy_pending_ = false;
  }

  void save(StateWriter& out) const override {
    out.put("ppo.rng", rng_);
    out.put("ppo.updates", updates_);
    learner_.save(out, "ppo.net");
    // Empty between learn() and propose(), where the trainer checkpoints; saved all the same.
    out.put_array<std::uint8_t>("ppo.rollout.actions", rollout_.actions);
    out.put_array<double>("ppo.rollout.old_log_prob", rollout_.old_log_prob);
    out.put("ppo.rollout.old_value", rollout_.old_value);
    out.put("ppo.rollout.greedy", static_cast<std::uint64_t>(greedy_pending_));
    const PpoStats& s = stats_.loss;
    out.put_array<double>(
        "ppo.stats", std::vector<double>{s.policy_loss, s.value_loss, s.entropy, s.clip_fraction,
                                         s.approx_kl, stats_.grad_norm});
  }

  void load(StateReader& in) override {
    rng_ = in.get_rng("ppo.rng");
    updates_ = in.get_u64("ppo.updates");
    learner_.load(in, "ppo.net");
    rollout_.clear();
    rollout_.tensors = learner_.tensors();
    rollout_.actions = in.get_array<std::uint8_t>("ppo.rollout.actions");
    rollout_.old_log_prob = in.get_array<double>("ppo.rollout.old_log_prob");
    rollout_.old_value = in.get_f64("ppo.rollout.old_value");
    greedy_pending_ = in.get_u64("ppo.rollout.greedy") != 0;
    if (rollout_.actions.size() != rollout_.size() * rollout_.tensors)
      throw std::runtime_error(in.source() + ": ppo rollout of the wrong size");
    const std::vector<double> s = in.get_array<double>("ppo.stats");
    if (s.size() != 6) throw std::runtime_error(in.source() + ": ppo.stats has the wrong size");
    stats_.loss = PpoStats{s[0], s[1], s[2], s[3], s[4]};
    stats_.grad_norm = s[5];
  }

  std::string status() const override {
    if (updates_ == 0) return "no update yet";
    char text[160];
    std::snprintf(text, sizeof text,
                  "update %llu, entropy %.3f/tensor, clip %.0f%%, kl %.3g, value loss %.3g",
                  static_cast<unsigned long long>(updates_),
                  stats_.loss.entropy / static_cast<double>(learner_.tensors()),
                  100 * stats_.loss.clip_fraction, stats_.loss.approx_kl, stats_.loss.value_loss);
    return text;
  }

  std::optional<nn::Gnn<float>> policy() const override { return learner_.network(); }

 private:
  Settings settings_;
  Rng rng_;               // sampling and minibatch shuffling
  std::uint64_t budget_;  // the run's evaluations, for the annealing schedules
  PpoLearner learner_;
  Rollout rollout_;  // the last propose()'s samples, until learn()
  bool greedy_pending_ = false;
  PpoUpdateStats stats_;
  std::uint64_t updates_ = 0;
};

}  // namespace

AgentInfo ppo_agent() {
  AgentInfo info{
      kPpoName,
      "PPO: GNN actor-critic, per-tensor categorical policy, clipped surrogate, minibatch epochs",
      {"single-step"},
      {{"batch", "64", {}, "mappings per policy update (the rollout; one forward pass)"},
       {"epochs",
        "1",
        {},
        "passes over each rollout (CleanRL: 4; SB3: 10; 1 keeps resnet50 from collapsing onto the "
        "compiler's mapping)"},
       {"minibatches", "4", {}, "minibatches per epoch, one Adam step each (CleanRL: 4)"},
       {"lr", "0.001", {}, "Adam learning rate (tuned on gpt2-small; PPO paper, SB3: 3e-4)"},
       {"clip_range", "0.2", {}, "ε of the clipped ratio (PPO paper, SB3, CleanRL: 0.2)"},
       {"ent_coef",
        "0",
        {},
        "entropy bonus, on the mean entropy per tensor (tuned on gpt2-small; CleanRL: 0.01 per "
        "decision)"},
       {"vf_coef", "0.5", {}, "weight of the value loss (SB3, CleanRL: 0.5)"},
       {"max_grad_norm", "0.5", {}, "global gradient-norm clipping, 0 = none (SB3, CleanRL: 0.5)"},
       {"normalize_advantage",
        "true",
        {"true", "false"},
        "advantages to mean 0, std 1 per rollout (SB3, CleanRL)"},
       {"anneal_lr",
        "false",
        {"true", "false"},
        "decay the learning rate linearly to 0 over the budget (CleanRL: true)"},
       {"anneal_entropy",
        "false",
        {"true", "false"},
        "decay ent_coef linearly to 0 over the budget"},
       {"greedy",
        "false",
        {"true", "false"},
        "also score the policy's argmax mapping in every batch (not learned from)"},
       {"hidden", "64", {}, "GNN hidden size (EGRL: 128; 64 for wall time)"},
       {"conv_layers", "3", {}, "graph convolution layers (EGRL: U-Net depth 3)"}},
      [](const AgentSetup& setup) { return std::make_unique<PpoAgent>(setup); },
      std::nullopt,
      /*starts_from_policy=*/true};
  info.run_cost = {.seconds_per_tensor = 0.0052};
  info.has_policy = true;
  return info;
}

}  // namespace memplace::agents
