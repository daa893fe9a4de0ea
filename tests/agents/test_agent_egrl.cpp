// The egrl agent: the EA's population and the SAC learner on one replay buffer, through the
// trainer on toy problems with a brute-forced optimum, and driven by hand to check a generation's
// protocol (population, then the learner's rollouts, then migration).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "env/placement_context.hpp"
#include "env/registry.hpp"
#include "tests/support/agent_harness.hpp"

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
  const agents::TrainConfig defaults;
  CHECK(defaults.agent == "egrl");
  const agents::AgentInfo& info = agents::find_agent("egrl");
  // One GNN shape for the population and the learner: hidden and conv_layers are declared once.
  std::size_t hidden = 0;
  for (const OptionSpec& spec : info.hyperparameters)
    hidden += spec.name == "hidden";
  CHECK(hidden == 1);
}

// The number after the first "/" that follows `key` ("migrants elite 1/3" -> 3).
std::uint64_t status_total(const std::string& status, const std::string& key) {
  const std::size_t at = status.find(key);
  REQUIRE_MESSAGE(at != std::string::npos, status);
  return std::stoull(status.substr(status.find('/', at) + 1));
}

// Drives egrl by hand through 4 generations of a toy problem (population 6, 3 noisy learner
// samples plus the greedy one, no memo) with `options` on top, checking each generation's
// protocol; `trained_per_generation` is how many scored mappings should train the learner.
// Returns the status line at the end.
std::string drive_four_generations(const OptionMap& options, std::uint64_t trained_per_generation) {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 2);
  std::unique_ptr<Env> env = make("memplace/single-step-v0", {{"workload", toy.workload.string()},
                                                              {"hardware", toy.hardware.string()}});
  agents::AgentSetup setup;
  setup.context = make_placement_context(ModelSpec::from_options(env->options()), ModelVersion::v0);
  setup.observation = env->reset(0).obs.copy();
  setup.seed = 5;
  OptionMap values = {{"hidden", "16"},
                      {"population", "6"},
                      {"learner_samples", "3"},
                      {"memo", "false"},
                      {"learning_starts", "1"}};
  for (const auto& [name, value] : options)
    values[name] = value;
  setup.hyperparameters =
      resolve_options("egrl", agents::find_agent("egrl").hyperparameters, values);
  const auto agent = agents::make_agent("egrl", setup);
  std::uint64_t trained = 0;
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
    trained += trained_per_generation;
    // The learner took its gradient steps (grad_per_sample 0.5 from the first sample on) and
    // the next generation began.
    CHECK(status_number(agent->status(), "generation ") == generation + 1);
    CHECK(status_number(agent->status(), "generation " + std::to_string(generation + 1) + ", ") ==
          trained / 2);
  }
  return agent->status();
}

TEST_CASE("agent egrl: each generation scores the population, then the learner's rollouts") {
  // Every scored mapping trains the learner; its actor migrates and seeds a chromosome every
  // generation, counted once the generation they joined is selected.
  const std::string status = drive_four_generations({}, 10);
  CHECK(status_total(status, "migrants elite ") == 3);
  CHECK(status_total(status, "seeded chromosomes elite ") == 3);
}

TEST_CASE("agent egrl: the ablation switches remove what they name, and only that") {
  SUBCASE("replay=own: only the learner's 4 rollouts per generation train it") {
    const std::string status = drive_four_generations({{"replay", "own"}}, 4);
    CHECK(status_total(status, "migrants elite ") == 3);
  }
  SUBCASE("migrate_actor=false: no migrant, the chromosomes are still seeded") {
    const std::string status = drive_four_generations({{"migrate_actor", "false"}}, 10);
    CHECK(status_total(status, "migrants elite ") == 0);
    CHECK(status_total(status, "seeded chromosomes elite ") == 3);
  }
  SUBCASE("seed_chromosomes=false: migrants, no seeded chromosome") {
    const std::string status = drive_four_generations({{"seed_chromosomes", "false"}}, 10);
    CHECK(status_total(status, "migrants elite ") == 3);
    CHECK(status_total(status, "seeded chromosomes elite ") == 0);
  }
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
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"seed_chromosomes", "maybe"}, {"migrate_actor", "1"}, {"replay", "everything"}}) {
    CAPTURE(name);
    config.hyperparameters = {{name, value}};
    CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains(name.c_str()), InputError);
  }
}

}  // namespace
}  // namespace memplace
