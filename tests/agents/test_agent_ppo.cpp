// The ppo agent: its loss and update on fixed batches (direction, clipping, the gradient against
// finite differences), the toy problems against random search, 1 vs 2 threads, exact resume.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>
#include <vector>

#include "agents/nn/categorical.hpp"
#include "agents/policy_gradient/ppo_learner.hpp"
#include "agents/policy_gradient/ppo_loss.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "env/registry.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using agents::PpoLearner;
using agents::PpoOptions;
using agents::Rollout;
using testing::make_toy_problem;
using testing::TempDir;

Observation resnet50_observation() {
  return make("memplace/single-step/resnet50-v0")->reset(0).obs.copy();
}

// A small network that learns only from the surrogate: no entropy bonus, no value loss.
PpoOptions surrogate_only() {
  PpoOptions o;
  o.hidden = 16;
  o.conv_layers = 2;
  o.lr = 1e-3;
  o.epochs = 1;
  o.minibatches = 1;
  o.loss.ent_coef = 0;
  o.loss.vf_coef = 0;
  return o;
}

double log_prob(const PpoLearner& learner, const Mapping& m) {
  return nn::log_prob<float>(learner.logits(), learner.tensors(), learner.memories(), m);
}

std::vector<float> parameters(const PpoLearner& learner) {
  const auto v = learner.network().parameters().values();
  return {v.begin(), v.end()};
}

TEST_CASE("agent ppo: one update raises a high-advantage mapping and lowers a negative one") {
  const Observation obs = resnet50_observation();
  PpoLearner learner(obs.view(), 3, surrogate_only(), 1);
  Rng rng(5);
  learner.forward();
  Rollout rollout;
  std::vector<Mapping> mappings;
  learner.sample(2, rng, rollout, mappings);
  const double good_before = log_prob(learner, mappings[0]);
  const double bad_before = log_prob(learner, mappings[1]);
  CHECK(rollout.old_log_prob[0] == doctest::Approx(good_before).epsilon(1e-6));
  rollout.reward = {1.0, -1.0};
  const auto stats = learner.update(rollout, rng);
  CHECK(stats.steps == 1);
  CHECK(stats.loss.clip_fraction == 0);  // the first step's ratio is exactly 1
  CHECK(stats.loss.approx_kl == 0);
  learner.forward();
  CHECK(log_prob(learner, mappings[0]) > good_before + 0.01);
  CHECK(log_prob(learner, mappings[1]) < bad_before - 0.01);
}

TEST_CASE("agent ppo: the value head moves towards the rollout's mean reward") {
  const Observation obs = resnet50_observation();
  PpoOptions o = surrogate_only();
  o.loss.vf_coef = 0.5;
  o.epochs = 20;
  PpoLearner learner(obs.view(), 3, o, 2);
  Rng rng(1);
  learner.forward();
  Rollout rollout;
  std::vector<Mapping> mappings;
  learner.sample(4, rng, rollout, mappings);
  rollout.reward = {0.4, 0.6, 0.4, 0.6};
  const double before = std::abs(learner.value() - 0.5);
  learner.update(rollout, rng);
  learner.forward();
  CHECK(std::abs(learner.value() - 0.5) < 0.5 * before);
}

TEST_CASE("agent ppo: annealing scales the learning rate and the entropy bonus by what remains") {
  // With a quarter of the run left, an annealed update is the update with a quarter of the
  // coefficient (scaling by 0.25 is exact, so the parameters match bit for bit).
  const Observation obs = resnet50_observation();
  auto updated = [&](PpoOptions o, double remaining) {
    PpoLearner learner(obs.view(), 3, o, 7);
    Rng rng(3);
    learner.forward();
    Rollout rollout;
    std::vector<Mapping> mappings;
    learner.sample(8, rng, rollout, mappings);
    rollout.reward = {0.1, 0.9, 0.3, 0.5, 0.2, 0.8, 0.4, 0.6};
    learner.update(rollout, rng, remaining);
    return parameters(learner);
  };
  PpoOptions annealed = surrogate_only();
  annealed.loss.ent_coef = 0.04;
  annealed.anneal_lr = true;
  annealed.anneal_entropy = true;
  PpoOptions quarter = surrogate_only();
  quarter.lr = annealed.lr * 0.25;
  quarter.loss.ent_coef = 0.01;
  const std::vector<float> a = updated(annealed, 0.25);
  CHECK(a == updated(quarter, 1.0));
  CHECK(a != updated(annealed, 1.0));
  // Without the switches, `remaining` changes nothing.
  PpoOptions constant = annealed;
  constant.anneal_lr = constant.anneal_entropy = false;
  CHECK(updated(constant, 0.25) == updated(constant, 1.0));
}

TEST_CASE("agent ppo: the surrogate's gradient is zero exactly where the ratio is clipped") {
  // One sample, ratio set through log π_old: the clip acts above 1+ε for A > 0 and below 1-ε for
  // A < 0; on the other side the ratio is unbounded and the gradient flows.
  const std::size_t rows = 4, memories = 3;
  std::vector<float> logits(rows * memories);
  Rng rng(3);
  for (float& z : logits)
    z = static_cast<float>(2 * rng.uniform01() - 1);
  const std::vector<std::uint8_t> action = {0, 2, 1, 1};
  const double current = nn::log_prob<float>(logits, rows, memories, action);
  const agents::PpoCoefficients c{.clip_range = 0.2, .ent_coef = 0, .vf_coef = 0};
  struct Case {
    double ratio, advantage;
    bool clipped;
  };
  for (const Case k : {Case{1.5, 1, true}, Case{0.5, 1, false}, Case{1.1, 1, false},
                       Case{0.5, -1, true}, Case{1.5, -1, false}, Case{0.9, -1, false}}) {
    CAPTURE(k.ratio);
    CAPTURE(k.advantage);
    Rollout r;
    r.tensors = rows;
    r.actions = action;
    r.old_log_prob = {current - std::log(k.ratio)};
    r.reward = {0};
    r.advantage = {k.advantage};
    std::vector<float> dlogits(logits.size(), 0.0f), scratch;
    float dvalue = 0;
    const std::uint32_t minibatch[] = {0};
    const auto stats =
        agents::ppo_gradient(logits, memories, 0.0f, r, minibatch, c, dlogits, dvalue, scratch);
    const double norm =
        std::sqrt(std::inner_product(dlogits.begin(), dlogits.end(), dlogits.begin(), 0.0));
    if (k.clipped)
      CHECK(norm == 0);
    else
      CHECK(norm > 0.1);
    CHECK(stats.clip_fraction == (std::abs(k.ratio - 1) > 0.2 ? 1.0 : 0.0));
  }
}

TEST_CASE("agent ppo: a batch whose ratios all left the clip range leaves the network unchanged") {
  const Observation obs = resnet50_observation();
  PpoOptions o = surrogate_only();
  o.normalize_advantage = false;  // keep every advantage positive
  for (const double ratio : {1.5, 1.1}) {
    CAPTURE(ratio);
    PpoLearner learner(obs.view(), 3, o, 4);
    Rng rng(9);
    learner.forward();
    Rollout rollout;
    std::vector<Mapping> mappings;
    learner.sample(3, rng, rollout, mappings);
    rollout.old_value = 0;
    rollout.reward = {1.0, 2.0, 0.5};
    for (double& lp : rollout.old_log_prob)
      lp -= std::log(ratio);
    const std::vector<float> before = parameters(learner);
    const auto stats = learner.update(rollout, rng);
    CHECK(stats.loss.clip_fraction == (ratio > 1.2 ? 1.0 : 0.0));
    if (ratio > 1.2)
      CHECK(parameters(learner) == before);
    else
      CHECK(parameters(learner) != before);
  }
}

// The loss of agents/policy_gradient/ppo_loss.hpp written out in double from its definition.
double reference_loss(std::span<const double> z, std::size_t memories, double value,
                      const Rollout& r, const agents::PpoCoefficients& c) {
  const std::size_t rows = r.tensors;
  double loss = 0, entropy = 0;
  const auto n = static_cast<double>(r.size());
  for (std::size_t b = 0; b < r.size(); ++b) {
    const double lp = nn::log_prob<double>(z, rows, memories, r.action(b));
    const double ratio = std::exp(lp - r.old_log_prob[b]);
    const double a = r.advantage[b];
    loss -= std::min(ratio * a, std::clamp(ratio, 1 - c.clip_range, 1 + c.clip_range) * a) / n;
    loss += c.vf_coef * (value - r.reward[b]) * (value - r.reward[b]) / n;
  }
  entropy = nn::entropy<double>(z, rows, memories);
  return loss - c.ent_coef * entropy / static_cast<double>(rows);
}

TEST_CASE("agent ppo: the minibatch gradient matches finite differences of the loss") {
  const std::size_t rows = 6, memories = 3, samples = 5;
  Rng rng(11);
  std::vector<float> logits(rows * memories);
  for (float& z : logits)
    z = static_cast<float>(2 * rng.uniform01() - 1);
  const std::vector<double> z(logits.begin(), logits.end());
  Rollout r;
  r.tensors = rows;
  r.actions.resize(samples * rows);
  nn::sample_rows<float>(logits, rows, memories, rng, std::span(r.actions).subspan(0, rows));
  for (std::size_t b = 1; b < samples; ++b)
    nn::sample_rows<float>(logits, rows, memories, rng,
                           std::span(r.actions).subspan(b * rows, rows));
  // Ratios inside the clip range and outside it on both sides, away from its edges.
  const double ratios[] = {1.05, 0.9, 1.6, 0.5, 1.4};
  const double advantages[] = {0.7, -1.2, 0.4, -0.3, -0.8};
  for (std::size_t b = 0; b < samples; ++b) {
    r.old_log_prob.push_back(nn::log_prob<double>(z, rows, memories, r.action(b)) -
                             std::log(ratios[b]));
    r.reward.push_back(0.1 * static_cast<double>(b) - 0.2);
    r.advantage.push_back(advantages[b]);
  }
  const agents::PpoCoefficients c{.clip_range = 0.2, .ent_coef = 0.05, .vf_coef = 0.5};
  const float value = 0.3f;
  std::vector<float> dlogits(logits.size(), 0.0f), scratch;
  float dvalue = 0;
  const std::vector<std::uint32_t> all = {0, 1, 2, 3, 4};
  agents::ppo_gradient(logits, memories, value, r, all, c, dlogits, dvalue, scratch);

  constexpr double h = 1e-6;
  std::vector<double> x = z;
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = z[i] + h;
    const double plus = reference_loss(x, memories, value, r, c);
    x[i] = z[i] - h;
    const double minus = reference_loss(x, memories, value, r, c);
    x[i] = z[i];
    CAPTURE(i);
    CHECK(dlogits[i] == doctest::Approx((plus - minus) / (2 * h)).epsilon(1e-4).scale(1e-3));
  }
  const double vplus = reference_loss(z, memories, value + h, r, c);
  const double vminus = reference_loss(z, memories, value - h, r, c);
  CHECK(dvalue == doctest::Approx((vplus - vminus) / (2 * h)).epsilon(1e-4));
}

// --- Through the trainer -------------------------------------------------------------------

struct Run {
  double best = 0;
  double late_mean = 0;  // mean speedup of the last quarter of the evaluations (invalid = 0)
};

Run run(const std::string& agent, const std::string& workload, const std::string& hardware,
        std::uint64_t budget, std::uint64_t seed, const std::filesystem::path& dir) {
  agents::TrainConfig config;
  config.agent = agent;
  config.model.workload = workload;
  config.model.hardware = hardware;
  config.budget = budget;
  config.seed = seed;
  config.threads = 1;
  static int runs = 0;
  agents::Trainer trainer(config, dir / ("run" + std::to_string(runs++)));
  Run out{trainer.run().best_speedup, 0};
  std::uint64_t previous = 0, counted = 0;
  for (const agents::CurveRow& row : trainer.curve()) {
    const std::uint64_t n = row.evaluations - previous;
    if (row.evaluations > budget - budget / 4) {
      out.late_mean += row.batch_mean_speedup * static_cast<double>(n);
      counted += n;
    }
    previous = row.evaluations;
  }
  out.late_mean /= static_cast<double>(counted);
  return out;
}

TEST_CASE("agent ppo: on toy problems the policy concentrates on good mappings") {
  // What the policy samples at the end of 2,000 evaluations closes at least 40 % of the gap
  // between uniform sampling and the optimum, on every problem and seed. (Its best mapping is
  // not compared with random search's here: 2,000 uniform samples of 3^12 mappings find one as good
  // or better; see the resnet50 case below.)
  TempDir dir;
  for (std::uint64_t problem = 1; problem <= 4; ++problem) {
    const auto toy = make_toy_problem(dir.path, problem);
    CAPTURE(problem);
    CAPTURE(toy.optimum_speedup);
    CAPTURE(toy.mean_random_speedup);
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      const Run ppo =
          run("ppo", toy.workload.string(), toy.hardware.string(), 2000, seed, dir.path);
      CAPTURE(seed);
      CAPTURE(ppo.best);
      CAPTURE(ppo.late_mean);
      CHECK(ppo.late_mean >
            toy.mean_random_speedup + 0.4 * (toy.optimum_speedup - toy.mean_random_speedup));
    }
  }
}

TEST_CASE("agent ppo: on resnet50 its best beats random search's at the same budget") {
  TempDir dir;
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    const Run ppo = run("ppo", "resnet50", "nnpi", 2000, seed, dir.path);
    const Run random = run("random", "resnet50", "nnpi", 2000, seed, dir.path);
    CAPTURE(seed);
    CAPTURE(ppo.best);
    CAPTURE(random.best);
    CAPTURE(ppo.late_mean);
    CAPTURE(random.late_mean);
    CHECK(ppo.best > random.best + 0.2);
    CHECK(ppo.late_mean > random.late_mean + 0.5);
  }
}

TEST_CASE(
    "agent ppo: scoring its greedy mapping too, the same seed gives the same run on 1 and 2 "
    "threads") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "ppo";
  config.budget = 1500;
  config.seed = 7;
  config.hyperparameters = {{"greedy", "true"}};
  testing::check_threads_match(config, dir.path);
}

TEST_CASE(
    "agent ppo: a run with annealed schedules, stopped and resumed, ends as an uninterrupted one") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "ppo";
  config.budget = 2000;
  config.seed = 3;
  config.checkpoint_every = 300;
  // The shared conformance test resumes the constant schedules; the annealed ones are state too.
  config.hyperparameters = {{"anneal_lr", "true"}, {"anneal_entropy", "true"}};
  testing::check_resume_matches(config, dir.path / "annealed", 13);
}

TEST_CASE("agent ppo: bad hyperparameters are refused with the name") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "ppo";
  config.budget = 10;
  auto refused = [&](OptionMap h, const char* message) {
    config.hyperparameters = std::move(h);
    CAPTURE(message);
    CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "run"), doctest::Contains(message),
                         InputError);
  };
  refused({{"lr", "0"}}, "hyperparameter lr=0");
  refused({{"clip_range", "1.5"}}, "hyperparameter clip_range=1.5");
  refused({{"epochs", "0"}}, "hyperparameter epochs=0");
  refused({{"batch", "8"}, {"minibatches", "16"}}, "minibatches=16 exceeds the 8 sampled");
  refused({{"batch", "8"}, {"minibatches", "8"}, {"greedy", "true"}},
          "minibatches=8 exceeds the 7 sampled");
  refused({{"normalize_advantage", "yes"}}, "option 'normalize_advantage': expected one of");
  refused({{"anneal_lr", "linear"}}, "option 'anneal_lr': expected one of");
  refused({{"anneal_entropy", "1"}}, "option 'anneal_entropy': expected one of");
}

}  // namespace
}  // namespace memplace
