// The sac agent and its parts: the replay buffer, the learner (its critics fit rewards, its state
// survives a checkpoint), and the agent through the trainer on toy problems with a brute-forced
// optimum (better than random, independent of the thread count, exact resume).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "agents/registry.hpp"
#include "agents/sac/replay_buffer.hpp"
#include "agents/sac/sac_learner.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "env/placement_context.hpp"
#include "env/registry.hpp"
#include "tests/support/agent_harness.hpp"
#include "tests/support/thread_ranks.hpp"

namespace memplace {
namespace {

using agents::ReplayBuffer;
using agents::SacLearner;
using agents::SacOptions;
using testing::make_toy_problem;
using testing::TempDir;
using testing::ToyProblem;
using testing::train_on;

std::unique_ptr<Env> toy_env(const ToyProblem& toy) {
  return make("memplace/single-step-v0",
              {{"workload", toy.workload.string()}, {"hardware", toy.hardware.string()}});
}

TEST_CASE("agents sac: the replay buffer overwrites its oldest entry when full") {
  ReplayBuffer buffer(3, 2);
  const std::vector<std::vector<std::uint8_t>> mappings = {{0, 1}, {1, 1}, {2, 0}, {2, 2}};
  for (std::size_t i = 0; i < mappings.size(); ++i)
    buffer.add(mappings[i], static_cast<double>(i + 1));
  CHECK(buffer.size() == 3);
  CHECK(buffer.total_added() == 4);
  // The fourth went into slot 0, where the first was.
  CHECK(std::vector<std::uint8_t>(buffer.mapping(0).begin(), buffer.mapping(0).end()) ==
        mappings[3]);
  CHECK(buffer.reward(0) == 4.0);
  CHECK(buffer.reward(1) == 2.0);
  CHECK(buffer.reward(2) == 3.0);
  CHECK_THROWS_WITH_AS(buffer.add(std::vector<std::uint8_t>{0, 1, 2}, 0.0),
                       doctest::Contains("3 tensors, expected 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(buffer.add(mappings[0], std::nan("")), doctest::Contains("non-finite"),
                       std::invalid_argument);
  CHECK_THROWS_AS(buffer.mapping(3), std::out_of_range);
}

TEST_CASE("agents sac: replay minibatches are uniform and follow the seed") {
  ReplayBuffer buffer(4, 3);
  for (std::uint8_t i = 0; i < 4; ++i)
    buffer.add(std::vector<std::uint8_t>{i, i, i}, i);
  std::vector<std::uint8_t> a1, a2;
  std::vector<double> r1, r2;
  Rng rng1(9), rng2(9);
  buffer.sample(4000, rng1, a1, r1);
  buffer.sample(4000, rng2, a2, r2);
  CHECK(a1 == a2);
  CHECK(r1 == r2);
  std::vector<int> counts(4, 0);
  for (std::size_t k = 0; k < r1.size(); ++k) {
    const auto slot = static_cast<std::size_t>(r1[k]);
    CHECK(a1[3 * k] == slot);  // the mapping travels with its reward
    ++counts[slot];
  }
  for (int c : counts)
    CHECK(std::abs(c - 1000) < 100);
  ReplayBuffer empty(2, 3);
  CHECK_THROWS_AS(empty.sample(1, rng1, a1, r1), std::logic_error);
}

TEST_CASE("agents sac: the replay buffer survives save and load") {
  ReplayBuffer buffer(5, 2);
  for (std::uint8_t i = 0; i < 7; ++i)
    buffer.add(std::vector<std::uint8_t>{i, static_cast<std::uint8_t>(7 - i)}, 0.5 * i);
  StateWriter out;
  buffer.save(out, "replay");
  StateReader in(out.finish(), "test");
  ReplayBuffer copy(5, 2);
  copy.load(in, "replay");
  in.expect_end();
  CHECK(copy.size() == 5);
  CHECK(copy.total_added() == 7);
  Rng rng1(4), rng2(4);
  std::vector<std::uint8_t> a1, a2;
  std::vector<double> r1, r2;
  buffer.sample(50, rng1, a1, r1);
  copy.sample(50, rng2, a2, r2);
  CHECK(a1 == a2);
  CHECK(r1 == r2);
  // New entries overwrite the same slot in both.
  buffer.add(std::vector<std::uint8_t>{9, 9}, 9);
  copy.add(std::vector<std::uint8_t>{9, 9}, 9);
  for (std::size_t i = 0; i < 5; ++i)
    CHECK(buffer.reward(i) == copy.reward(i));

  StateReader again(out.finish(), "test");
  ReplayBuffer other(6, 2);
  CHECK_THROWS_WITH_AS(other.load(again, "replay"), doctest::Contains("5 x 2"), std::runtime_error);
}

SacOptions small_options() {
  SacOptions o;
  o.hidden = 32;
  o.conv_layers = 2;
  o.minibatch = 16;
  o.learning_starts = 1;
  return o;
}

// The toy problem's single-step observation.
nn::GraphBatch toy_graph(const ToyProblem& toy) {
  return nn::GraphBatch(toy_env(toy)->reset(0).obs);
}

// Learner options for the tests that must take every path: each actor estimator, with the
// bootstrapped target (gamma > 0), so that the target critics matter too.
std::vector<SacOptions> each_estimator_bootstrapped() {
  std::vector<SacOptions> all;
  for (const auto estimator : {agents::ActorEstimator::local, agents::ActorEstimator::score}) {
    SacOptions o = small_options();
    o.estimator = estimator;
    o.gamma = 0.9;
    all.push_back(o);
  }
  return all;
}

// Adds `count` random mappings over 3 memories with random rewards in [-0.5, 0.5).
void add_random_samples(SacLearner& learner, Rng& rng, int count) {
  for (int i = 0; i < count; ++i) {
    std::vector<std::uint8_t> m(learner.tensors());
    for (auto& x : m)
      x = static_cast<std::uint8_t>(rng.uniform(3));
    learner.add(m, rng.uniform01() - 0.5);
  }
}

TEST_CASE("agents sac: the critics fit the scaled rewards of a fixed set of mappings") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 1);
  auto env = toy_env(toy);
  SacLearner learner(nn::GraphBatch(env->reset(0).obs), env->simulator().num_memories(),
                     small_options(), 3);
  // 16 random mappings with their real rewards.
  Rng rng(1);
  std::vector<std::uint8_t> actions;
  std::vector<double> targets;
  for (int i = 0; i < 16; ++i) {
    std::vector<std::int64_t> a(learner.tensors());
    for (auto& x : a)
      x = static_cast<std::int64_t>(rng.uniform(learner.memories()));
    env->reset(0);
    const double reward = env->step(a).reward;
    const std::vector<std::uint8_t> mapping(a.begin(), a.end());
    learner.add(mapping, reward);
    actions.insert(actions.end(), mapping.begin(), mapping.end());
    targets.push_back(learner.options().reward_scale * reward);
  }
  auto mse = [&](std::size_t k) {
    const std::vector<float> q = learner.q_values(k, actions);
    double sum = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
      sum += (q[i] - targets[i]) * (q[i] - targets[i]);
    return sum / static_cast<double>(q.size());
  };
  const double before0 = mse(0), before1 = mse(1);
  learner.train(400);
  CHECK(learner.gradient_steps() == 400);
  CAPTURE(before0);
  CAPTURE(mse(0));
  CHECK(mse(0) < before0 / 50);
  CHECK(mse(1) < before1 / 50);
  CHECK(learner.stats().critic_loss < before0 / 50);
}

TEST_CASE("agents sac: a tuned alpha moves the policy's entropy towards the target") {
  // From a near-uniform actor (entropy about ln 3 per tensor), a low target lowers alpha and a
  // target above the entropy raises it; a fixed alpha stays where it is.
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 1);
  auto env = toy_env(toy);
  const nn::GraphBatch graph(env->reset(0).obs);
  auto alpha_after = [&](double target_entropy) {
    SacOptions o = small_options();
    o.alpha = 0.2;
    o.target_entropy = target_entropy;
    SacLearner learner(graph, env->simulator().num_memories(), o, 3);
    Rng rng(2);
    for (int i = 0; i < 40; ++i) {
      std::vector<std::uint8_t> mapping(learner.tensors());
      for (auto& x : mapping)
        x = static_cast<std::uint8_t>(rng.uniform(learner.memories()));
      learner.add(mapping, rng.uniform01());
    }
    learner.train(50);
    CAPTURE(learner.stats().entropy);
    return learner.stats().alpha;
  };
  // Adam moves log alpha by about the learning rate (1e-3) per step while the sign of the
  // gradient holds: 50 steps, a change of at most 0.05 and, here, more than 0.04.
  CHECK(alpha_after(0) == 0.2);
  const double lowered = alpha_after(0.2), raised = alpha_after(0.999);
  CHECK(lowered >= 0.2 * std::exp(-0.0501));
  CHECK(lowered < 0.2 * std::exp(-0.04));
  CHECK(raised <= 0.2 * std::exp(0.0501));
  CHECK(raised > 0.2 * std::exp(0.04));
}

TEST_CASE("agents sac: a saved learner continues exactly as the original") {
  TempDir dir;
  const nn::GraphBatch graph = toy_graph(make_toy_problem(dir.path, 2));
  for (SacOptions options : each_estimator_bootstrapped()) {
    options.gradient_steps_per_sample = 0.25;
    SacLearner learner(graph, 3, options, 5);
    Rng rng(2);
    add_random_samples(learner, rng, 40);
    learner.train_for_new_samples(40);  // 40 x 0.25 = 10 steps
    learner.sample(3);
    StateWriter out;
    learner.save(out, "learner");
    SacLearner copy(graph, 3, options, 99);  // another seed: everything must come from the file
    StateReader in(out.finish(), "test");
    copy.load(in, "learner");
    in.expect_end();
    for (SacLearner* l : {&learner, &copy}) {
      l->add(std::vector<std::uint8_t>(l->tensors(), 1), 0.25);
      l->train(5);
    }
    CHECK(learner.gradient_steps() == 15);
    auto same = [](const nn::Gnn<float>& a, const nn::Gnn<float>& b) {
      return std::equal(a.parameters().values().begin(), a.parameters().values().end(),
                        b.parameters().values().begin());
    };
    CHECK(same(learner.actor(), copy.actor()));
    for (std::size_t k = 0; k < 2; ++k) {
      CHECK(same(learner.critic(k), copy.critic(k)));
      CHECK(same(learner.target(k), copy.target(k)));
    }
    CHECK(learner.sample(4) == copy.sample(4));
    CHECK(learner.greedy() == copy.greedy());
  }
  SacOptions wider = small_options();
  wider.hidden = 16;
  SacLearner other(graph, 3, wider, 5);
  SacLearner learner(graph, 3, small_options(), 5);
  StateWriter out;
  learner.save(out, "learner");
  StateReader in(out.finish(), "test");
  CHECK_THROWS_WITH_AS(other.load(in, "learner"), doctest::Contains("hidden=32"),
                       std::runtime_error);
}

// Runs the sac agent (noise=2) on a toy problem through the env for `budget` evaluations: the best
// valid speedup seen, the mean speedup of its last 300 proposals (invalid ones count 0), and the
// speedup of the final actor's greedy mapping (0 if invalid).
struct ToyRun {
  double best = 0;
  double recent_mean = 0;
  double greedy = 0;
};
ToyRun run_sac(const ToyProblem& toy, std::uint64_t seed, std::uint64_t budget) {
  auto env = toy_env(toy);
  agents::AgentSetup setup;
  setup.context = make_placement_context(ModelSpec::from_options(env->options()), ModelVersion::v0);
  setup.observation = env->reset(0).obs.copy();
  setup.seed = seed;
  setup.budget = budget;
  agents::TrainConfig config;
  config.agent = "sac";
  config.model.workload = toy.workload.string();
  config.model.hardware = toy.hardware.string();
  // The defaults, but for the noise of the proposals: its default moves 10 tensors of a
  // proposal, most of a 12-tensor toy, and this test watches what the actor itself proposes.
  config.hyperparameters = {{"noise", "2"}};
  config.resolve();
  setup.hyperparameters = config.hyperparameters;
  auto agent = agents::make_agent("sac", setup);
  auto score = [&](const Mapping& m) {
    env->reset(0);
    const StepResult step = env->step(std::vector<std::int64_t>(m.begin(), m.end()));
    return agents::Outcome{step.reward, step.info.speedup, step.info.valid, false, m};
  };
  ToyRun run;
  const std::uint64_t recent = 300;
  for (std::uint64_t used = 0; used < budget;) {
    const std::vector<Mapping> proposals = agent->propose(budget - used);
    std::vector<agents::Outcome> outcomes;
    for (const Mapping& m : proposals) {
      outcomes.push_back(score(m));
      const agents::Outcome& o = outcomes.back();
      if (o.valid) run.best = std::max(run.best, o.speedup);
      if (used++ >= budget - recent && o.valid) run.recent_mean += o.speedup / recent;
    }
    agent->learn(proposals, outcomes);
  }
  const agents::Outcome greedy = score(agent->propose(1).front());  // greedy=true: the argmax
  run.greedy = greedy.valid ? greedy.speedup : 0;
  return run;
}

TEST_CASE("agents sac: over 2 and 3 ranks, each critic trained on one, the one-process learner") {
  // Every option that changes what the ranks exchange: the local and score estimators, the
  // bootstrapped target (the target critics' Q), a tuned alpha.
  TempDir dir;
  const nn::GraphBatch graph = toy_graph(make_toy_problem(dir.path, 2));
  for (SacOptions options : each_estimator_bootstrapped()) {
    options.target_entropy = 0.5;
    auto run = [&](ProcessGroup& ranks) {
      SacLearner learner(graph, 3, options, 5, ranks);
      Rng rng(2);
      for (int round = 0; round < 3; ++round) {
        add_random_samples(learner, rng, 10);
        learner.train(4);
        learner.sample(2);
      }
      if (ranks.size() > 1) {
        StateWriter early;
        CHECK_THROWS_WITH_AS(learner.save(early, "learner"), doctest::Contains("share_critics"),
                             std::logic_error);
      }
      learner.share_critics();
      StateWriter out;
      learner.save(out, "learner");
      return out.finish();
    };
    const std::string alone = run(single_process());
    for (int size : {2, 3}) {
      CAPTURE(size);
      std::vector<std::string> saved(static_cast<std::size_t>(size));
      const auto failures = testing::on_thread_ranks(size, [&](ProcessGroup& ranks) {
        saved[static_cast<std::size_t>(ranks.rank())] = run(ranks);
      });
      for (int r = 0; r < size; ++r) {
        CHECK(testing::message_of(failures[static_cast<std::size_t>(r)]) == "");
        CHECK(saved[static_cast<std::size_t>(r)] == alone);
      }
    }
  }
}

TEST_CASE("agents sac: learns far better mappings than random ones on toy problems") {
  TempDir dir;
  const std::uint64_t budget = 1200;
  for (const std::uint64_t problem : {1, 3, 4}) {
    const ToyProblem toy = make_toy_problem(dir.path, problem);
    CAPTURE(problem);
    CAPTURE(toy.optimum_speedup);
    CAPTURE(toy.mean_random_speedup);
    const double gap = toy.optimum_speedup - toy.mean_random_speedup;
    double sac_best = 0, sac_greedy = 0, sac_recent = 0, random_best = 0;
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      const ToyRun run = run_sac(toy, seed, budget);
      CAPTURE(seed);
      CAPTURE(run.greedy);
      CAPTURE(run.recent_mean);
      // The final actor's argmax mapping is valid and well above a random mapping, and so is
      // what the actor proposes at the end of the run.
      CHECK(run.greedy > toy.mean_random_speedup + 0.3 * gap);
      CHECK(run.recent_mean > 2 * toy.mean_random_speedup);
      sac_best += run.best / 3;
      sac_greedy += run.greedy / 3;
      sac_recent += run.recent_mean / 3;
      random_best += train_on(toy, "random", budget, seed, 1, dir.path).best_speedup / 3;
    }
    // Random search's best of 1200 draws is near the optimum of these 12-tensor problems; sac's
    // best comes close to it, not above (docs/agents.md, sac).
    MESSAGE("toy " << problem << ": optimum " << toy.optimum_speedup << ", mean random "
                   << toy.mean_random_speedup << ", best of random " << random_best
                   << "; sac: best " << sac_best << ", greedy " << sac_greedy
                   << ", last 300 proposals " << sac_recent << " (means over 3 seeds)");
    CHECK(sac_best > 0.85 * random_best);
  }
}

TEST_CASE(
    "agents sac: a run with a tuned alpha, stopped and resumed, ends as an uninterrupted one") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 4);
  agents::TrainConfig config = testing::toy_config(toy, "sac", 700, 3);
  config.checkpoint_every = 150;
  // The shared conformance test resumes the fixed alpha; the tuned alpha is state too.
  config.hyperparameters["target_entropy"] = "0.5";
  testing::check_resume_matches(config, dir.path / "tuned", 9);
}

TEST_CASE("agents sac: bad hyperparameters are refused with the field named") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 1);
  agents::TrainConfig config = testing::toy_config(toy, "sac", 20000, 0);
  config.hyperparameters = {{"lr", "0"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "a"),
                       doctest::Contains("hyperparameter lr=0"), InputError);
  config.hyperparameters = {{"estimator", "score"}, {"actor_samples", "1"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "b"),
                       doctest::Contains("actor samples >= 2"), InputError);
  config.hyperparameters = {{"estimator", "exact"}};
  CHECK_THROWS_AS(config.resolve(), InputError);
  config.hyperparameters = {{"target_entropy", "1"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "c"),
                       doctest::Contains("hyperparameter target_entropy=1"), InputError);
  config.hyperparameters = {{"target_entropy", "0.5"}, {"alpha", "0"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "d"),
                       doctest::Contains("a tuned alpha starts from alpha"), InputError);
}

}  // namespace
}  // namespace memplace
