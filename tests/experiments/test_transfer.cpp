// Zero-shot transfer: the population's champion is the best GNN it has scored, and its greedy
// mapping of the training workload earns that fitness again; a policy trained on one toy places
// another toy of a different size, scored as the simulator scores it, and a chip with fewer
// memories through the rank rule; a policy reading other features is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

#include "agents/evolution/evolution.hpp"
#include "agents/training/trainer.hpp"
#include "env/registry.hpp"
#include "experiments/generalization/transfer.hpp"
#include "model/inputs/workload.hpp"
#include "model/references.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;
using testing::ToyProblem;

std::unique_ptr<Env> toy_env(const ToyProblem& toy) {
  return make("memplace/single-step-v0",
              {{"workload", toy.workload.string()}, {"hardware", toy.hardware.string()}});
}

experiments::ZeroShotTarget target(std::string workload, std::string hardware,
                                   ModelVersion env_version = ModelVersion::v0) {
  experiments::ZeroShotTarget t;
  t.model.workload = std::move(workload);
  t.model.hardware = std::move(hardware);
  t.set_env_version(env_version);
  return t;
}

double reward_of(Env& env, const Mapping& m) {
  env.reset(0);
  return env.step(std::vector<std::int64_t>(m.begin(), m.end())).reward;
}

TEST_CASE("evolution: the champion is the best GNN scored so far, and replays its fitness") {
  TempDir dir;
  const ToyProblem toy = make_toy_problem(dir.path, 6);
  const std::unique_ptr<Env> env = toy_env(toy);
  agents::EvolutionConfig config;
  config.population = 8;
  config.hidden = 16;
  config.memo = false;
  agents::Evolution evo(config, env->reset(0).obs.copy().view(), env->simulator().num_memories(),
                        3);
  CHECK(evo.champion_fitness() == -std::numeric_limits<double>::infinity());
  double best_gnn = -std::numeric_limits<double>::infinity();
  for (int generation = 0; generation < 6; ++generation) {
    const std::span<const agents::Candidate> candidates = evo.candidates();
    for (std::size_t c = 0; c < candidates.size(); ++c)
      evo.report(c, reward_of(*env, candidates[c].mapping));
    evo.next_generation();
    for (std::size_t i = 0; i < evo.size(); ++i)
      if (evo.kind(i) == agents::IndividualKind::gnn)
        best_gnn = std::max(best_gnn, evo.fitness()[i]);
    CHECK(evo.champion_fitness() == best_gnn);
  }
  // The champion is deterministic (greedy): placing the training workload with it zero-shot
  // scores its fitness again.
  const experiments::ZeroShotResult again = experiments::evaluate_zero_shot(
      evo.champion(), target(toy.workload.string(), toy.hardware.string()));
  CHECK(reward_of(*env, again.mapping) == evo.champion_fitness());
}

TEST_CASE("zero-shot: a policy trained on one toy places another, scored by the simulator") {
  TempDir dir;
  const ToyProblem trained_on = make_toy_problem(dir.path, 1);
  agents::TrainConfig config = testing::toy_config(trained_on, "ea", 600, 0);
  config.threads = 1;
  config.hyperparameters = {{"hidden", "16"}};
  agents::Trainer trainer(config, dir.path / "run");
  trainer.run();
  const std::optional<nn::Gnn<float>> policy = trainer.agent().policy();
  REQUIRE(policy);

  // Another toy: its own graph, its own size (a subfolder, so its files do not clash).
  std::filesystem::create_directories(dir.path / "other");
  const ToyProblem other = make_toy_problem(dir.path / "other", 8);
  const experiments::ZeroShotResult r = experiments::evaluate_zero_shot(
      *policy, target(other.workload.string(), other.hardware.string()));
  const Simulator sim(load_workload(other.workload.string()),
                      load_hardware(other.hardware.string()));
  REQUIRE(r.mapping.size() == sim.num_tensors());
  const Evaluation e = sim.evaluate(r.mapping);
  CHECK(r.valid == e.valid);
  CHECK(r.latency_fs == e.latency_fs);
  const double compiler = static_cast<double>(sim.evaluate(compiler_mapping(sim)).latency_fs);
  CHECK(r.speedup == doctest::Approx(e.valid ? compiler / static_cast<double>(e.latency_fs) : 0));
  // Rectified: valid, and the mapping itself when it already fitted.
  const Evaluation fixed = sim.evaluate(r.rectified);
  CHECK(fixed.valid);
  CHECK(r.rectified_speedup == doctest::Approx(compiler / static_cast<double>(fixed.latency_fs)));
  if (r.valid) {
    CHECK(r.rectified == r.mapping);
    CHECK(r.demotions == 0);
  } else {
    CHECK(r.demotions > 0);
  }

  // On a 2-memory chip the policy's 3-memory choices are carried over by rank: the same greedy
  // choices, the two faster memories both FAST, the slowest SLOW.
  const std::string two_memories = MEMPLACE_SOURCE_DIR "/tests/data/good/toy-hw.yaml";
  const experiments::ZeroShotResult smaller =
      experiments::evaluate_zero_shot(*policy, target(other.workload.string(), two_memories));
  REQUIRE(smaller.mapping.size() == r.mapping.size());
  for (std::size_t t = 0; t < r.mapping.size(); ++t)
    CHECK(smaller.mapping[t] == (r.mapping[t] == 2 ? 1 : 0));
  const Simulator small_sim(load_workload(other.workload.string()), load_hardware(two_memories));
  CHECK(smaller.latency_fs == small_sim.evaluate(smaller.mapping).latency_fs);
  CHECK(smaller.simulator->num_memories() == 2);

  // Another env version has other node features; a workload that does not load is named.
  CHECK_THROWS_WITH_AS(
      experiments::evaluate_zero_shot(
          *policy, target(other.workload.string(), other.hardware.string(), ModelVersion::v1)),
      doctest::Contains("node features"), InputError);
  CHECK_THROWS_WITH_AS(
      experiments::evaluate_zero_shot(*policy, target("no-such-workload", other.hardware.string())),
      doctest::Contains("no-such-workload"), InputError);
}

TEST_CASE("zero-shot: memory choices carry over by rank") {
  using experiments::transferred_memory;
  // Same number of memories: unchanged.
  for (std::size_t k = 0; k < 3; ++k)
    CHECK(transferred_memory(k, 3, 3) == k);
  // 3 -> 2: both faster memories become the fast one.
  CHECK(transferred_memory(0, 3, 2) == 0);
  CHECK(transferred_memory(1, 3, 2) == 0);
  CHECK(transferred_memory(2, 3, 2) == 1);
  // 2 -> 4: fastest stays fastest, slowest stays slowest.
  CHECK(transferred_memory(0, 2, 4) == 0);
  CHECK(transferred_memory(1, 2, 4) == 3);
  // 4 -> 3: ranks kept, clipped below the slowest.
  CHECK(transferred_memory(1, 4, 3) == 1);
  CHECK(transferred_memory(2, 4, 3) == 1);
  CHECK(transferred_memory(3, 4, 3) == 2);
  // One memory: everything in it.
  CHECK(transferred_memory(2, 3, 1) == 0);
}

}  // namespace
}  // namespace memplace
