// The trainer and its config: one placement context per run, the env version's dynamics, bad
// configs refused with the field named. (Every agent's resume and thread guarantees are the shared
// conformance test's: tests/agents/test_agent_conformance.cpp.)
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "base/state_archive.hpp"
#include "base/version.hpp"
#include "env/placement_context.hpp"
#include "model/references.hpp"
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

TEST_CASE(
    "trainer: a checkpoint it cannot read is refused with the command that restarts the run") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "sa";
  config.budget = 400;
  config.threads = 1;
  config.checkpoint_every = 200;
  agents::Trainer(config, dir.path / "run").run();
  const std::string yaml = agents::TrainConfig::load(dir.path / "run" / "config.yaml").to_yaml();
  // A checkpoint as a memplace with other records would have left it: maybe a version, the right
  // config, then a record this build does not expect. The refusal names both versions and the
  // command that restarts the run.
  auto refusal_for = [&](std::optional<std::string> version) {
    StateWriter other;
    if (version) other.put("memplace.version", *version);
    other.put("trainer.config", yaml);
    other.put("trainer.generation", std::uint64_t{3});
    other.save(dir.path / "run" / "checkpoint.bin");
    try {
      agents::Trainer::resume(dir.path / "run");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(resumed)");
  };
  const std::string me = "memplace " + std::string(memplace_version()) + " cannot resume it (";
  const std::string restart = "): start the run afresh with `memplace train --config ";
  CHECK_MESSAGE(refusal_for(std::nullopt)
                        .find(me +
                              "written by a memplace before 0.2.0, which "
                              "did not record its version" +
                              restart) != std::string::npos,
                refusal_for(std::nullopt));
  CHECK_MESSAGE(
      refusal_for("0.1.7").find(me + "written by memplace 0.1.7" + restart) != std::string::npos,
      refusal_for("0.1.7"));
  const std::string same(memplace_version());
  CHECK_MESSAGE(refusal_for(same).find(me + "written by this version, then damaged" + restart) !=
                    std::string::npos,
                refusal_for(same));
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

TEST_CASE("trainer: mcts under v2 plays the malloc env and its mappings score under v2") {
  agents::TrainConfig config;
  config.agent = "mcts";
  config.model.workload = "resnet50";
  config.set_env_version(ModelVersion::v2);
  config.budget = 60;
  config.hyperparameters = {{"start", "slowest"}, {"simulations", "4"}};
  const auto run = [&](int threads) {
    TempDir dir;
    config.threads = threads;
    return agents::Trainer(config, dir.path / "run").run();
  };
  const agents::TrainResult r = run(1);
  REQUIRE(r.best_mapping);
  const Simulator addressed(load_workload("resnet50"), load_hardware("nnpi"),
                            {.memory_time = std::nullopt, .dynamics = Dynamics::addressed});
  const Evaluation e = addressed.evaluate(*r.best_mapping);
  CHECK(e.valid);
  CHECK(r.best_latency_fs == e.latency_fs);
  CHECK(r.best_speedup ==
        doctest::Approx(speedup(reference_latencies(addressed).compiler_fs, e.latency_fs)));
  // The same bytes on 1 and 2 threads, and stopped and resumed.
  TempDir dir;
  config.threads = 1;
  testing::check_threads_match(config, dir.path / "threads");
  config.checkpoint_every = 20;
  testing::check_resume_matches(config, dir.path / "resume", 3);
  // The game starts every episode with nothing placed and has no GNN prior.
  config.hyperparameters = {};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "best"),
                       doctest::Contains("start=best needs the sequential env"), InputError);
  CHECK(!std::filesystem::exists(dir.path / "best"));  // refused before any folder is made
  config.hyperparameters = {{"start", "slowest"}, {"prior", "gnn"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "gnn"),
                       doctest::Contains("prior=gnn reads the sequential env's observation"),
                       InputError);
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
  // A count is decimal digits alone, as on the command line: "010" is ten.
  config.agent = "random";
  for (const char* batch : {"+5", " 5", "0x10", "5.0", "1e2", "-1", "0", "4097"}) {
    config.hyperparameters = {{"batch", batch}};
    const std::string expected =
        std::string("hyperparameter batch=") + batch + ": expected a whole number in 1..4096";
    CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "run"),
                         doctest::Contains(expected.c_str()), InputError);
  }
  config.hyperparameters = {{"batch", "010"}};
  CHECK_NOTHROW(agents::Trainer(config, dir.path / "run-010"));
  config.agent = "sa";
  config.hyperparameters = {{"temperature", "1"}};
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("temperature"), InputError);
  config.hyperparameters = {};
  config.env = "sequential";
  CHECK_THROWS_WITH_AS(config.resolve(), doctest::Contains("runs on single-step"), InputError);
  config.env = "single-step";
  CHECK_THROWS_WITH_AS(agents::TrainConfig::parse_yaml("env_version: v3\n", "run.yaml"),
                       doctest::Contains("run.yaml:1: env_version: env version 'v3': expected v0"),
                       InputError);
  // v2 needs an agent that gives tensors addresses.
  agents::TrainConfig addressed = agents::TrainConfig::parse_yaml("env_version: v2\n", "run.yaml");
  addressed.agent = "sa";
  CHECK_THROWS_WITH_AS(addressed.resolve(),
                       doctest::Contains("env_version: agent 'sa' trains under v0, v1, not v2 (the "
                                         "agents that do: mcts)"),
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
