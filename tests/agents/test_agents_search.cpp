// The search agents (agents/search/: random, greedy-dp, sa) beyond the shared conformance test:
// greedy-dp's stopping rule and the searches' start.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "env/placement_context.hpp"
#include "model/references.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;
using testing::train_on;

TEST_CASE("agents: greedy-dp without restarts stops when a sweep brings no gain") {
  TempDir dir;
  const auto toy = make_toy_problem(dir.path, 5);
  const auto dp = train_on(toy, "greedy-dp", 100000, 0, 1, dir.path);
  CHECK(dp.evaluations < 100000);
  // Each sweep is 6 layers x 8 alternatives, after the start: the last sweep found nothing.
  CHECK((dp.evaluations - 1) % 48 == 0);
}

TEST_CASE("agents: sa and greedy-dp started from the compiler's mapping never end below it") {
  for (const std::string agent : {"sa", "greedy-dp"}) {
    CAPTURE(agent);
    TempDir dir;
    agents::TrainConfig config;
    config.agent = agent;
    config.model.workload = "resnet101";
    config.budget = 60;
    config.threads = 1;
    config.hyperparameters = {{"start", "compiler"}};
    const agents::TrainResult from_compiler = agents::Trainer(config, dir.path / "c").run();
    CHECK(from_compiler.best_speedup >= 1.0);  // its first proposal is the compiler's mapping
    config.hyperparameters = {};
    const agents::TrainResult from_slowest = agents::Trainer(config, dir.path / "s").run();
    CHECK(from_slowest.best_speedup < 1.0);  // 60 evaluations from all-DRAM are not enough
    config.hyperparameters = {{"start", "optimum"}};
    CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("start"), InputError);
  }
}

}  // namespace
}  // namespace memplace
