// The egrl agent: the EA's population and the SAC learner on one replay buffer, through the
// trainer on toy problems with a brute-forced optimum, and driven by hand to check a generation's
// protocol (population, then the learner's rollouts, then migration).
#include <doctest/doctest.h>

#include <string>

#include "agents/registry.hpp"
#include "agents/trainer.hpp"
#include "env/errors.hpp"
#include "env/placement_context.hpp"
#include "env/registry.hpp"
#include "tests/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;
using testing::ToyProblem;
using testing::train_on;

agents::TrainConfig toy_config(const ToyProblem& toy, std::uint64_t budget, std::uint64_t seed) {
  return testing::toy_config(toy, "egrl", budget, seed);
}

// The number after `key` in an agent's status line.
std::uint64_t status_number(const std::string& status, const std::string& key) {
  const std::size_t at = status.find(key);
  REQUIRE_MESSAGE(at != std::string::npos, status);
  return std::stoull(status.substr(at + key.size()));
}

// Outcomes of reward 0 for a batch of proposals, scored as proposed.
std::vector<agents::Outcome> zero_rewards(const std::vector<Mapping>& batch) {
  std::vector<agents::Outcome> outcomes(batch.size());
  for (std::size_t k = 0; k < batch.size(); ++k)
    outcomes[k].scored = batch[k];
  return outcomes;
}

TEST_CASE("agent egrl: is the default agent") {
  CHECK(agents::TrainConfig{}.agent == "egrl");
  const agents::AgentInfo& info = agents::find_agent("egrl");
  // One GNN shape for the population and the learner: hidden and conv_layers are declared once.
  std::size_t hidden = 0;
  for (const OptionSpec& spec : info.hyperparameters)
    hidden += spec.name == "hidden";
  CHECK(hidden == 1);
}

TEST_CASE("agent egrl: each generation scores the population, then the learner's rollouts") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 2);
  std::unique_ptr<Env> env = make("memplace/single-step-v0", {{"workload", toy.workload.string()},
                                                              {"hardware", toy.hardware.string()}});
  agents::AgentSetup setup;
  setup.context = make_placement_context(env->options());
  setup.observation = env->reset(0).obs.copy();
  setup.seed = 5;
  setup.hyperparameters = resolve_options("egrl", agents::find_agent("egrl").hyperparameters,
                                          {{"hidden", "16"},
                                           {"population", "6"},
                                           {"learner_samples", "3"},
                                           {"memo", "false"},
                                           {"learning_starts", "1"}});
  const auto agent = agents::make_agent("egrl", setup);
  std::uint64_t scored = 0;
  for (std::uint64_t generation = 0; generation < 4; ++generation) {
    CAPTURE(generation);
    CHECK(status_number(agent->status(), "generation ") == generation);
    // Without the memo, the population proposes one mapping per individual...
    std::vector<Mapping> population = agent->propose(100);
    CHECK(population.size() == 6);
    agent->learn(population, zero_rewards(population));
    // ...and then the learner its 3 noisy samples and its greedy mapping, split across calls.
    std::vector<Mapping> first = agent->propose(2);
    CHECK(first.size() == 2);
    agent->learn(first, zero_rewards(first));
    CHECK(status_number(agent->status(), "generation ") == generation);
    std::vector<Mapping> rest = agent->propose(100);
    CHECK(rest.size() == 2);
    agent->learn(rest, zero_rewards(rest));
    scored += 10;
    // Every scored mapping trained the learner (grad_per_sample 0.5 from the first sample on),
    // and its actor migrated into the next generation.
    CHECK(status_number(agent->status(), "generation ") == generation + 1);
    CHECK(status_number(agent->status(), "generation " + std::to_string(generation + 1) + ", ") ==
          scored / 2);
  }
  // Migrants are counted once the generation they joined is selected.
  CHECK(agent->status().find("/3") != std::string::npos);
}

TEST_CASE("agent egrl: reaches the brute-forced optimum of toy problems") {
  // 5000 evaluations, against ea's 3000: the learner's rollouts take about a sixth of the budget,
  // and on problem 1 (seed 2) egrl needs more than 3000 to leave a local optimum. Hidden size 32
  // for the suite's time: the default 64 reaches the optimum of these runs too, in 4-6x the time.
  testing::check_reaches_toy_optimum("egrl", 5000, {1, 5, 9}, 3, {{"hidden", "32"}});
}

TEST_CASE("agent egrl: the same seed gives the same run on 1 and 2 threads") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 3);
  testing::check_threads_match(toy_config(toy, 800, 7), dir.path);
}

TEST_CASE("agent egrl: a run stopped and resumed ends exactly as an uninterrupted one") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 4);
  agents::TrainConfig config = toy_config(toy, 900, 3);
  config.checkpoint_every = 150;
  config.hyperparameters = {{"hidden", "16"}};  // the state saved is the same, only smaller
  // Stopped in the population's turn and in the learner's.
  testing::check_resume_matches(config, dir.path / "a", 13);
  testing::check_resume_matches(config, dir.path / "b", 20);
}

TEST_CASE("agent egrl: bad hyperparameters are refused with the field named") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 1);
  agents::TrainConfig config = toy_config(toy, 10, 0);
  config.hyperparameters = {{"learner_samples", "-1"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "a"),
                       doctest::Contains("hyperparameter learner_samples=-1"), InputError);
  config.hyperparameters = {{"population", "2"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "b"),
                       doctest::Contains("hyperparameter population=2"), InputError);
  config.hyperparameters = {{"lr", "nan"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "c"), doctest::Contains("lr"),
                       InputError);
  config.hyperparameters = {{"seed_chromosomes", "maybe"}};
  CHECK_THROWS_AS(config.resolve(), InputError);
}

}  // namespace
}  // namespace memplace
