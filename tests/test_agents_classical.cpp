// The classical agents (random, greedy-dp, sa) and the trainer's guarantees: toy problems with a
// brute-forced optimum, results independent of the thread count, and exact resume.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "agents/registry.hpp"
#include "agents/trainer.hpp"
#include "env/model/references.hpp"
#include "env/placement_context.hpp"
#include "tests/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;
using testing::train_on;

TEST_CASE("agents: greedy-dp and sa reach the brute-forced optimum of toy problems") {
  // A 12-tensor toy needs a warmer end than the default (tuned on gpt2-small): with t_end 1e-5
  // the chain freezes in a local optimum of problems 1 and 3 (docs/agents.md, sa).
  testing::check_reaches_toy_optimum("sa", 10000, {1, 2, 3, 4}, 3, {{"t_end", "0.001"}});
  testing::check_reaches_toy_optimum("greedy-dp", 3000, {1, 2, 3, 4}, 1, {{"restarts", "true"}});
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
    testing::check_threads_match(config, dir.path / agent);
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
    testing::check_resume_matches(config, dir.path / agent, 17);
  }
}

TEST_CASE("trainer: a run builds one placement context (one simulator and its references)") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "sa";
  config.budget = 600;
  config.seed = 2;
  config.threads = 2;
  config.checkpoint_every = 200;
  const std::size_t before = placement_contexts_made();
  agents::Trainer(config, dir.path / "run").run();
  CHECK(placement_contexts_made() == before + 1);
  agents::Trainer::resume(dir.path / "run");
  CHECK(placement_contexts_made() == before + 2);
}

TEST_CASE("trainer: env_version v1 trains under the streaming dynamics, over its compiler") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "sa";
  config.workload = "resnet101";
  config.env_version = "v1";
  config.budget = 400;
  config.threads = 1;
  config.env_options = {{"lookahead", "4"}};
  const agents::TrainResult r = agents::Trainer(config, dir.path / "run").run();
  REQUIRE(r.best_mapping);
  Hardware hw = load_hardware("nnpi");
  hw.dma.lookahead = 4;
  const Simulator streaming(load_workload("resnet101"), hw,
                            {.memory_time = std::nullopt, .dynamics = Dynamics::streaming});
  CHECK(r.best_latency_fs == streaming.evaluate(*r.best_mapping).latency_fs);
  CHECK(r.best_speedup ==
        doctest::Approx(speedup(reference_latencies(streaming).compiler_fs, r.best_latency_fs)));
  // The run folder's config reruns it as v1 (v0 configs do not name their version).
  const agents::TrainConfig saved = agents::TrainConfig::load(dir.path / "run" / "config.yaml");
  CHECK(saved.env_version == "v1");
  CHECK(saved.env_options.at("dynamics") == "streaming");
  CHECK(testing::read_text(dir.path / "run" / "config.yaml").find("env_version: v1") !=
        std::string::npos);
}

TEST_CASE("agents: sa and greedy-dp started from the compiler's mapping never end below it") {
  for (const std::string agent : {"sa", "greedy-dp"}) {
    CAPTURE(agent);
    TempDir dir;
    agents::TrainConfig config;
    config.agent = agent;
    config.workload = "resnet101";
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
  config.env = "single-step";
  config.env_version = "v2";
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("env_version: 'v2'"), InputError);
  config.env_version = "v0";
  config.env_options = {{"dynamics", "streaming"}};  // a v1 option
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("dynamics"), InputError);
}

}  // namespace
}  // namespace memplace
