// The classical agents (random, greedy-dp, sa) and the trainer's guarantees: toy problems with a
// brute-forced optimum, results independent of the thread count, and exact resume.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "agents/registry.hpp"
#include "agents/trainer.hpp"
#include "tests/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;
using testing::train_on;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// curve.csv without the wall-clock column.
std::string curve_without_wall(const std::filesystem::path& run) {
  std::istringstream in(read_text(run / "curve.csv"));
  std::string line, out;
  while (std::getline(in, line)) {
    const auto first = line.find(','), second = line.find(',', first + 1);
    out += line.substr(0, first) + line.substr(second) + "\n";
  }
  return out;
}

TEST_CASE("agents: greedy-dp and sa reach the brute-forced optimum of toy problems") {
  TempDir dir;
  for (std::uint64_t problem = 1; problem <= 4; ++problem) {
    const auto toy = make_toy_problem(dir.path, problem);
    CAPTURE(problem);
    CAPTURE(toy.optimum_speedup);
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      const auto sa = train_on(toy, "sa", 10000, seed, 1, dir.path);
      REQUIRE(sa.best_mapping);
      CHECK(sa.best_speedup == doctest::Approx(toy.optimum_speedup).epsilon(1e-12));
    }
    const auto dp = train_on(toy, "greedy-dp", 3000, 0, 1, dir.path, {{"restarts", "true"}});
    REQUIRE(dp.best_mapping);
    CHECK(dp.best_speedup == doctest::Approx(toy.optimum_speedup).epsilon(1e-12));
  }
}

TEST_CASE("agents: greedy-dp without restarts stops when a sweep brings no gain") {
  TempDir dir;
  const auto toy = make_toy_problem(dir.path, 5);
  const auto dp = train_on(toy, "greedy-dp", 100000, 0, 1, dir.path);
  CHECK(dp.evaluations < 100000);
  // Each sweep is 6 layers x 8 alternatives, after the start: the last sweep found nothing.
  CHECK((dp.evaluations - 1) % 48 == 0);
}

TEST_CASE("agents: the same seed gives the same run on 1 and 2 threads") {
  TempDir dir;
  for (const std::string agent : {"random", "sa", "greedy-dp"}) {
    CAPTURE(agent);
    agents::TrainConfig config;
    config.agent = agent;
    config.budget = 3000;
    config.seed = 7;
    config.threads = 1;
    agents::Trainer one(config, dir.path / (agent + "-1"));
    one.run();
    config.threads = 2;
    agents::Trainer two(config, dir.path / (agent + "-2"));
    two.run();
    CHECK(curve_without_wall(dir.path / (agent + "-1")) ==
          curve_without_wall(dir.path / (agent + "-2")));
    CHECK(read_text(dir.path / (agent + "-1") / "best_mapping.yaml") ==
          read_text(dir.path / (agent + "-2") / "best_mapping.yaml"));
  }
}

TEST_CASE("agents: a run stopped and resumed ends exactly as an uninterrupted one") {
  TempDir dir;
  for (const std::string agent : {"random", "sa", "greedy-dp"}) {
    CAPTURE(agent);
    agents::TrainConfig config;
    config.agent = agent;
    config.budget = 2500;
    config.seed = 3;
    config.checkpoint_every = 300;
    agents::Trainer whole(config, dir.path / (agent + "-whole"));
    whole.run();
    {
      agents::Trainer first(config, dir.path / (agent + "-parts"));
      int batches = 0;
      const auto result = first.run({}, [&] { return ++batches == 17; });
      CHECK(result.interrupted);
    }
    agents::Trainer rest = agents::Trainer::resume(dir.path / (agent + "-parts"));
    const auto result = rest.run();
    CHECK_FALSE(result.interrupted);
    CHECK(curve_without_wall(dir.path / (agent + "-whole")) ==
          curve_without_wall(dir.path / (agent + "-parts")));
    CHECK(read_text(dir.path / (agent + "-whole") / "best_mapping.yaml") ==
          read_text(dir.path / (agent + "-parts") / "best_mapping.yaml"));
  }
}

TEST_CASE("agents: bad configs are refused with the field named") {
  agents::TrainConfig config;
  config.agent = "dqn";
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("unknown agent 'dqn' (known: random"),
                       InputError);
  config.agent = "sa";
  config.hyperparameters = {{"t_start", "hot"}};
  config.resolve();  // names are checked here; values when the agent is made
  TempDir dir;
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "run"),
                       doctest::Contains("hyperparameter t_start=hot"), InputError);
  config.hyperparameters = {{"temperature", "1"}};
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("temperature"), InputError);
  config.hyperparameters = {};
  config.env = "sequential";
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("runs on single-step"), InputError);
}

}  // namespace
}  // namespace memplace
