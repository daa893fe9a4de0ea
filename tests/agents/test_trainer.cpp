// The trainer and its config: one placement context per run, the env version's dynamics, bad
// configs refused with the field named. (Every agent's resume and thread guarantees are the shared
// conformance test's: tests/agents/test_agent_conformance.cpp.)
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "env/model/references.hpp"
#include "env/placement_context.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;
using testing::train_on;

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
  config.model.workload = "resnet101";
  config.set_env_version(ModelVersion::v1);
  config.budget = 400;
  config.threads = 1;
  config.set_env_options({{"lookahead", "4"}});
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
  CHECK(saved.env_version == ModelVersion::v1);
  CHECK(saved.env_options().at("dynamics") == "streaming");
  CHECK(testing::read_text(dir.path / "run" / "config.yaml").find("env_version: v1") !=
        std::string::npos);
}

TEST_CASE("agents: bad configs are refused with the field named") {
  agents::TrainConfig config;
  config.agent = "dqn";
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("unknown agent 'dqn' (known: egrl"),
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
  CHECK_THROWS_WITH_AS(agents::TrainConfig::parse_yaml("env_version: v3\n", "run.yaml"),
                       doctest::Contains("run.yaml:1: env_version: env version 'v3': expected v0"),
                       InputError);
  CHECK_THROWS_WITH_AS(agents::TrainConfig::parse_yaml("env_version: v2\n", "run.yaml"),
                       doctest::Contains("run.yaml:1: env_version: v2 (addressed dynamics) is not "
                                         "trainable yet"),
                       InputError);
  // A v1 option under v0, by name or set directly.
  CHECK_THROWS_WITH_AS(config.set_env_options({{"dynamics", "streaming"}}),
                       doctest::Contains("unknown option 'dynamics'"), InputError);
  config.model.lookahead = 4;
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("env_options: lookahead"), InputError);
  config.model.lookahead.reset();
  config.model.dynamics = Dynamics::streaming;
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("streaming dynamics"), InputError);
  // Changing the version moves the dynamics to the new version's default.
  config.set_env_version(ModelVersion::v1);
  config.set_env_options({{"dynamics", "pinned"}});
  CHECK(config.model.dynamics == Dynamics::pinned);
  config.set_env_version(ModelVersion::v0);
  config.set_env_version(ModelVersion::v1);
  CHECK(config.model.dynamics == Dynamics::streaming);
  CHECK_NOTHROW(config.resolve());
}

}  // namespace
}  // namespace memplace
