// Placing a model with a trained policy (experiments/generalization/place.hpp): the placement is
// the policy's greedy mapping rectified, replayed exactly from its mapping file; a fine-tune only
// improves on it; one policy ships per chip and places by default; a policy for another chip or
// feature set, or a fine-tune of a policy that names no agent, is refused with the file named.
#include <doctest/doctest.h>

#include "agents/nn/gnn_file.hpp"
#include "agents/shipped_policies.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "experiments/generalization/place.hpp"
#include "experiments/generalization/transfer.hpp"
#include "model/inputs/hardware.hpp"
#include "model/mapping_io.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using testing::make_toy_problem;
using testing::TempDir;

// A ppo policy trained briefly on a toy, saved with its spec.
struct TrainedPolicy {
  TempDir dir;
  testing::ToyProblem toy = make_toy_problem(dir.path, 3);
  agents::TrainConfig config = testing::toy_config(toy, "ppo", 400, 0);
  std::filesystem::path file = dir.path / "policy.gnn";
  explicit TrainedPolicy(agents::NodeFeatures features = agents::NodeFeatures::observation) {
    config.threads = 1;
    config.features = features;
    agents::Trainer trainer(config, dir.path / "run");
    trainer.run();
    agents::save_gnn(file, *trainer.agent().policy(), agents::policy_spec(config));
  }
};

experiments::PlaceRequest request_for(const TrainedPolicy& p, const testing::ToyProblem& toy) {
  experiments::PlaceRequest r;
  r.workload = toy.workload.string();
  r.hardware = toy.hardware.string();
  r.policy = p.file;
  return r;
}

TEST_CASE("place: the policy's greedy mapping rectified, replayed exactly from its file") {
  const TrainedPolicy p;
  std::filesystem::create_directories(p.dir.path / "other");
  const testing::ToyProblem other = make_toy_problem(p.dir.path / "other", 9);
  const experiments::PlaceResult placed = experiments::place(request_for(p, other));
  CHECK(placed.policy_has_spec);
  CHECK(placed.policy == agents::policy_spec(p.config));

  experiments::ZeroShotTarget target;
  target.model.workload = other.workload.string();
  target.model.hardware = other.hardware.string();
  target.set_env_version(p.config.env_version);
  const experiments::ZeroShotResult zero =
      experiments::evaluate_zero_shot(agents::load_gnn(p.file), target);
  CHECK(placed.mapping == zero.rectified);
  CHECK(placed.zero_shot_valid == zero.valid);
  CHECK(placed.zero_shot_speedup == zero.rectified_speedup);
  CHECK(placed.speedup == zero.rectified_speedup);
  CHECK(placed.fine_tune_evaluations == 0);
  CHECK(placed.bound_speedup >= placed.speedup);

  // The mapping file replays to the same latency, its recorded result re-checked.
  const std::filesystem::path file = p.dir.path / "mapping.yaml";
  save_mapping(file, *placed.simulator, placed.mapping,
               RecordedResult{placed.latency_fs, placed.speedup > 0});
  const MappingFile replayed = load_mapping(file, *placed.simulator);
  CHECK(replayed.mapping == placed.mapping);
  CHECK(placed.simulator->evaluate(replayed.mapping).latency_fs == placed.latency_fs);
}

TEST_CASE("place: a fine-tune runs its budget from the policy and never makes it worse") {
  const TrainedPolicy p;
  experiments::PlaceRequest request = request_for(p, p.toy);
  const experiments::PlaceResult zero = experiments::place(request);
  request.budget = 200;
  request.fine_tune_dir = p.dir.path / "fine-tune";
  const experiments::PlaceResult tuned = experiments::place(request);
  CHECK(tuned.fine_tune_evaluations == 200);
  CHECK(tuned.zero_shot_speedup == zero.zero_shot_speedup);
  CHECK(tuned.speedup == std::max(zero.speedup, tuned.fine_tuned_speedup));
  CHECK(tuned.speedup >= zero.speedup);
  CHECK(tuned.latency_fs == tuned.simulator->evaluate(tuned.mapping).latency_fs);
  // A ppo policy is fine-tuned from its logits divided by 4 unless told otherwise (the run's
  // config records it, so the same request resumes it and another temperature is refused).
  CHECK(experiments::default_fine_tune_temperature("ppo") == 4);
  CHECK(experiments::default_fine_tune_temperature("egrl") == 1);
  CHECK(agents::TrainConfig::load(p.dir.path / "fine-tune" / "config.yaml").init_temperature == 4);
  request.init_temperature = 2;
  CHECK_THROWS_WITH_AS(experiments::place(request), doctest::Contains("another request"),
                       InputError);
  request.fine_tune_dir = p.dir.path / "fine-tune-t2";
  const experiments::PlaceResult warmer = experiments::place(request);
  CHECK(agents::TrainConfig::load(p.dir.path / "fine-tune-t2" / "config.yaml").init_temperature ==
        2);
  CHECK(warmer.speedup >= zero.speedup);
}

TEST_CASE("place: a chip-relative policy reads its own features, zero-shot and fine-tuned") {
  const TrainedPolicy p(agents::NodeFeatures::chip_relative);
  std::filesystem::create_directories(p.dir.path / "other");
  const testing::ToyProblem other = make_toy_problem(p.dir.path / "other", 9);
  experiments::PlaceRequest request = request_for(p, other);
  const experiments::PlaceResult placed = experiments::place(request);
  CHECK(placed.policy.features == "chip-relative");
  experiments::ZeroShotTarget target;
  target.model.workload = other.workload.string();
  target.model.hardware = other.hardware.string();
  target.set_env_version(p.config.env_version);
  const nn::Gnn<float> policy = agents::load_gnn(p.file);
  CHECK(placed.mapping ==
        experiments::evaluate_zero_shot(policy, target, agents::NodeFeatures::chip_relative)
            .rectified);
  // Given the observation's features instead, the policy's input width does not match.
  CHECK_THROWS_WITH_AS(experiments::evaluate_zero_shot(policy, target),
                       doctest::Contains("given 'observation'"), InputError);
  request.budget = 100;
  request.fine_tune_dir = p.dir.path / "fine-tune";
  const experiments::PlaceResult tuned = experiments::place(request);
  CHECK(tuned.fine_tune_evaluations == 100);
  CHECK(tuned.speedup >= placed.speedup);
}

TEST_CASE(
    "place: shipped ppo and egrl policies per chip, within their size budget, ppo's by default") {
  for (const std::string chip : {"nnpi", "edge-tpu", "ipu-gc200", "tpu-v4i"}) {
    CAPTURE(chip);
    CHECK(agents::shipped_policy_for(chip) == "ppo-" + chip);
    for (const std::string agent : {"ppo", "egrl"}) {
      const std::string name = agent + "-" + chip;
      CAPTURE(name);
      const std::optional<agents::PolicyFile> file = agents::load_shipped_policy(name);
      REQUIRE(file.has_value());
      REQUIRE(file->spec.has_value());
      CHECK(file->spec->agent == agent);
      CHECK(file->spec->hardware == chip);
      CHECK(file->spec->env_version == ModelVersion::v1);
      CHECK_NOTHROW(agents::parse_node_features(file->spec->features));
      // The size budget of a shipped policy (docs/place.md): 256 KiB.
      CHECK(find_embedded(agents::embedded_policies(), name)->text.size() <= 256 * 1024);
    }
  }
  CHECK_FALSE(agents::shipped_policy_for("toy").has_value());

  // No policy named: the chip's shipped one, as if its bytes were given as a file.
  TempDir dir;
  agents::write_shipped_policy("ppo-edge-tpu", dir.path / "ppo-edge-tpu.gnn");
  experiments::PlaceRequest request;
  request.workload = "procedural-cnn-s7";
  request.hardware = "edge-tpu";
  const experiments::PlaceResult shipped = experiments::place(request);
  CHECK(shipped.policy_source == "the shipped policy ppo-edge-tpu");
  request.policy = dir.path / "ppo-edge-tpu.gnn";
  const experiments::PlaceResult from_file = experiments::place(request);
  CHECK(from_file.mapping == shipped.mapping);
  CHECK(from_file.speedup == shipped.speedup);
  request.hardware = testing::make_toy_problem(dir.path, 1).hardware.string();
  request.policy.clear();
  CHECK_THROWS_WITH_AS(experiments::place(request),
                       doctest::Contains("no policy ships for the chip 'toy'"), InputError);
}

TEST_CASE("place: a policy for another chip or feature set, or without an agent, is refused") {
  const TrainedPolicy p;
  const nn::Gnn<float> policy = agents::load_gnn(p.file);
  agents::PolicySpec spec = agents::policy_spec(p.config);

  spec.hardware = "edge-tpu";
  agents::save_gnn(p.dir.path / "other-chip.gnn", policy, spec);
  experiments::PlaceRequest request = request_for(p, p.toy);
  request.policy = p.dir.path / "other-chip.gnn";
  CHECK_THROWS_WITH_AS(experiments::place(request),
                       doctest::Contains("other-chip.gnn: a policy trained for agent=ppo"),
                       InputError);
  CHECK_THROWS_WITH_AS(experiments::place(request), doctest::Contains("chip is 'toy'"), InputError);

  spec = agents::policy_spec(p.config);
  spec.features = "chip-normalised";
  agents::save_gnn(p.dir.path / "features.gnn", policy, spec);
  request.policy = p.dir.path / "features.gnn";
  CHECK_THROWS_WITH_AS(experiments::place(request), doctest::Contains("'chip-normalised'"),
                       InputError);

  // A file saved without a spec places zero-shot, but names no agent to fine-tune with.
  agents::save_gnn(p.dir.path / "bare.gnn", policy);
  request.policy = p.dir.path / "bare.gnn";
  CHECK_FALSE(experiments::place(request).policy_has_spec);
  request.budget = 10;
  request.fine_tune_dir = p.dir.path / "bare-fine-tune";
  CHECK_THROWS_WITH_AS(experiments::place(request), doctest::Contains("records no agent"),
                       InputError);
}

}  // namespace
}  // namespace memplace
