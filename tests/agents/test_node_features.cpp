// The node features a policy reads (agents/node_features.hpp): the chip-relative columns by hand on
// the toy chain, the observation set unchanged, and the set carried by a train config into the
// agent's network and its policy spec.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "agents/node_features.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "tests/support/agent_harness.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

// a / (a + b): the column's squashed ratio a / b.
double share(double a, double b) {
  return a / (a + b);
}

TEST_CASE("node features: chip-relative columns of the toy chain by hand") {
  // Toy chip: FAST 1000 B at 1 ns a byte, SLOW at 10 ns; 1 ns a MAC. Chain A -> B -> C:
  // A 100 MACs, weight 200, output 300 (read by B); B 1000 MACs, weight 100, output 100 (read by
  // C); C 50 MACs, no weight, output 50.
  const Simulator sim(toy::chain(), toy::hardware());
  Observation obs;
  obs.graph = build_static_graph(sim);
  const Observation same = agents::with_node_features(obs, sim, agents::NodeFeatures::observation);
  CHECK(same.graph == obs.graph);

  const Observation rel = agents::with_node_features(obs, sim, agents::NodeFeatures::chip_relative);
  const StaticGraph& g = *rel.graph;
  REQUIRE(g.num_features == 21 + 11);
  CHECK(g.feature_names[21] == "weight_of_fastest");
  CHECK(g.feature_names[31] == "weight_pressure");
  const auto names = agents::chip_relative_feature_names();
  CHECK(std::equal(names.begin(), names.end(), g.feature_names.begin() + 21));
  CHECK(g.edges == obs.graph->edges);
  const auto at = [&](std::size_t layer, std::size_t column) {
    return static_cast<double>(g.nodes[layer * g.num_features + column]);
  };
  for (std::size_t l = 0; l < 3; ++l)
    for (std::size_t c = 0; c < 21; ++c)
      CHECK(at(l, c) == static_cast<double>(obs.graph->nodes[l * 21 + c]));
  // The schedule's compute: 100 + 1000 + 50 = 1150 ns, a mean of 1150 / 3 a layer.
  const double mean = 1150.0 / 3;
  // A's weight: 200 of FAST's 1000 bytes; the fastest memory saves 2000 - 200 ns of its read.
  CHECK(at(0, 21) == doctest::Approx(share(200, 1000)));
  CHECK(at(0, 22) == doctest::Approx(share(200, 1000)));  // FAST is every fast byte
  CHECK(at(0, 23) == doctest::Approx(share(1800, 100)));
  CHECK(at(0, 24) == doctest::Approx(share(1800, mean)));
  // A's output: 300 bytes; saves 2700 ns writing and 2700 ns in B's read, against A's and B's
  // compute (1100 ns); live over steps 0-1 (1100 of 1150 ns), with B's output live at step 1
  // (300 + 100 bytes).
  CHECK(at(0, 25) == doctest::Approx(share(300, 1000)));
  CHECK(at(0, 27) == doctest::Approx(share(5400, 1100)));
  CHECK(at(0, 28) == doctest::Approx(share(5400, mean)));
  CHECK(at(0, 29) == doctest::Approx(1100.0 / 1150));
  CHECK(at(0, 30) == doctest::Approx(share(400, 1000)));
  // Every weight byte (300) against the fast bytes, on every node.
  for (std::size_t l = 0; l < 3; ++l)
    CHECK(at(l, 31) == doctest::Approx(share(300, 1000)));
  // C: no weight, so nothing to gain from it; its output has no consumer: the write only
  // (500 - 50 ns against its 50 ns), live at step 2 with B's output, which C reads (50 + 100).
  CHECK(at(2, 21) == 0.0);
  CHECK(at(2, 23) == 0.0);
  CHECK(at(2, 27) == doctest::Approx(share(450, 50)));
  CHECK(at(2, 29) == doctest::Approx(50.0 / 1150));
  CHECK(at(2, 30) == doctest::Approx(share(150, 1000)));
  for (std::size_t l = 0; l < 3; ++l)
    for (std::size_t c = 21; c < 32; ++c) {
      CHECK(at(l, c) >= 0.0);
      CHECK(at(l, c) < 1.0 + 1e-9);
    }
}

TEST_CASE("node features: names, and a train config carries the set to the agent and its spec") {
  for (const agents::NodeFeatures f : agents::kNodeFeatureSets)
    CHECK(agents::parse_node_features(agents::name_of(f)) == f);
  CHECK_THROWS_WITH_AS(agents::parse_node_features("relative"),
                       doctest::Contains("unknown node features 'relative'"), InputError);

  testing::TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 3);
  agents::TrainConfig config = testing::toy_config(toy, "ppo", 64, 1);
  config.features = agents::NodeFeatures::chip_relative;
  config.resolve();
  const std::string yaml = config.to_yaml();
  CHECK(yaml.find("features: chip-relative\n") != std::string::npos);
  CHECK(agents::TrainConfig::parse_yaml(yaml, "run.yaml") == config);
  CHECK(agents::policy_spec(config).features == "chip-relative");
  agents::Trainer trainer(config, dir.path / "run");
  trainer.run();
  CHECK(trainer.agent().policy()->config().input_features == 23 + 11);
  // Resumed from its folder, the run reads the same features.
  CHECK(agents::Trainer::resume(dir.path / "run").agent().policy()->config().input_features ==
        23 + 11);

  // Agents that read the observation as it is (no GNN policy) refuse the set, naming the field.
  agents::TrainConfig sa = testing::toy_config(toy, "sa", 64, 1);
  sa.features = agents::NodeFeatures::chip_relative;
  CHECK_THROWS_WITH_AS(sa.resolve(), doctest::Contains("features: agent 'sa'"), InputError);
  CHECK_THROWS_WITH_AS(agents::TrainConfig::parse_yaml("features: all\n", "run.yaml"),
                       doctest::Contains("run.yaml:1"), InputError);
}

}  // namespace
}  // namespace memplace
