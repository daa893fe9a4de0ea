// The suite table: a config of a suite's split (its instances, each on its own hardware; bad
// suites, splits and instances named), every run's share of the attainable gain, the aggregates
// per agent on hand-computed cases, and the heat map's data.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "experiments/charts/svg_chart.hpp"
#include "experiments/suite/suite_scores.hpp"
#include "experiments/table/table_config.hpp"
#include "model/inputs/suite.hpp"
#include "tests/support/table_config_refusal.hpp"

namespace memplace {
namespace {

using experiments::CellResult;
using experiments::TableConfig;
using experiments::TableRow;

TableConfig parse_table(const std::string& yaml) {
  return TableConfig::parse_yaml(yaml, "table.yaml");
}

std::vector<std::string> instance_ids(Split split) {
  const Suite suite = load_suite("v1");
  std::vector<std::string> ids;
  for (const SuiteInstance& instance : suite.instances)
    if (suite.split(instance) == split) ids.push_back(instance.id());
  return ids;
}

TEST_CASE("suite table config: a split's instances, each run on its own hardware") {
  TableConfig c = parse_table("agents: [sa]\nsuite: v1\n");
  c.resolve();
  CHECK(c.suite == "v1");
  CHECK(c.split == Split::test);
  CHECK(c.workloads == instance_ids(Split::test));
  CHECK(c.workloads.size() >= 19);

  TableConfig dev = parse_table("agents: [sa]\nsuite: v1\nsplit: dev\n");
  dev.resolve();
  CHECK(dev.workloads == instance_ids(Split::dev));

  // A subset of the split (the quick table), and the model of an instance.
  TableConfig quick =
      parse_table("agents: [sa]\nsuite: v1\nworkloads: [resnet18-b1@edge-tpu, vit-b16-b32@nnpi]\n");
  quick.resolve();
  const agents::TrainConfig cell = quick.cell("sa", "resnet18-b1@edge-tpu", 2);
  CHECK(cell.model.workload == "resnet18-b1");
  CHECK(cell.model.hardware == "edge-tpu");
  CHECK(quick.model_of("vit-b16-b32@nnpi").hardware == "nnpi");
  CHECK(quick.model_of("resnet50").hardware == quick.model.hardware);  // not an instance

  // The config file names the suite and its split and survives a round trip.
  TableConfig back = parse_table(quick.to_yaml());
  back.resolve();
  CHECK(back == quick);
  CHECK(quick.to_yaml().find("suite: \"v1\"\nsplit: test\n") != std::string::npos);
  TableConfig plain;
  CHECK(plain.to_yaml().find("suite") == std::string::npos);  // earlier folders compare equal
}

TEST_CASE("suite table config: bad suites, splits and instances are named") {
  const auto refused = testing::check_table_config_refused;

  refused("agents: [sa]\nsuite: v9\n", "suite");
  refused("agents: [sa]\nsplit: dev\n", "split: a split without a suite");
  refused("agents: [sa]\nsuite: v1\nsplit: train\n", "expected dev or test, got 'train'");
  refused("agents: [sa]\nsuite: v1\nworkloads: [bert-base]\n",
          "'bert-base' is not an instance of suite v1's test split");
  // A dev instance in a test table.
  refused("agents: [sa]\nsuite: v1\nworkloads: [" + instance_ids(Split::dev).front() + "]\n",
          "is not an instance of suite v1's test split");
  refused("agents: [sa]\nsuite: v1\nenv_version: v0\n",
          "suite v1 is scored under cost model v1, not env_version v0");
}

TEST_CASE("workload labels: a file's stem, any other entry itself (suite names hold dots)") {
  CHECK(experiments::workload_label("workloads/resnet50.yaml") == "resnet50");
  CHECK(experiments::workload_label("my.net.yml") == "my.net");
  CHECK(experiments::workload_label("qwen2.5-0.5b-decode-b1-kv512@tpu-v4i") ==
        "qwen2.5-0.5b-decode-b1-kv512@tpu-v4i");
  CHECK(experiments::workload_label("bert-base") == "bert-base");
}

CellResult run(const std::string& agent, const std::string& instance, std::uint64_t seed,
               double speedup) {
  CellResult c;
  c.agent = agent;
  c.workload = instance;
  c.seed = seed;
  c.found_valid = speedup > 0;
  c.best_speedup = speedup;
  return c;
}

TableRow best_known(const std::string& instance, double speedup) {
  TableRow r;
  r.workload = instance;
  r.best_known_speedup = speedup;
  return r;
}

TEST_CASE(
    "suite scores: shares of the attainable gain per run, and no valid mapping counts speedup 0") {
  TableConfig c;
  c.agents = {"a", "b"};
  c.workloads = {"x@nnpi", "y@nnpi", "z@nnpi", "w@nnpi"};
  const std::vector<CellResult> cells = {
      run("a", "x@nnpi", 0, 1.5),  run("a", "x@nnpi", 1, 2.0),
      run("b", "x@nnpi", 0, 1.25), run("b", "x@nnpi", 1, 0.0),  // no valid mapping
      run("a", "y@nnpi", 0, 1.1),  run("b", "y@nnpi", 0, 0.9),
      run("a", "z@nnpi", 0, 1.0),  run("b", "z@nnpi", 0, 1.0),  // nothing to gain on z
      run("a", "w@nnpi", 0, 1.3)};                              // no run of b on w
  const std::vector<TableRow> rows = {best_known("x@nnpi", 2.0), best_known("y@nnpi", 1.2),
                                      best_known("z@nnpi", 1.0), best_known("w@nnpi", 1.3)};
  const experiments::SuiteScores s = experiments::score_runs(
      c, cells, rows, [](const CellResult& r) { return r.found_valid ? r.best_speedup : 0; });
  CHECK(s.instances == std::vector<std::string>{"x@nnpi", "y@nnpi"});
  CHECK(s.unscored == std::vector<std::string>{"z@nnpi", "w@nnpi"});
  CHECK(s.shares[0][0] == std::vector<double>{0.5, 1.0});
  CHECK(s.shares[1][0] == std::vector<double>{0.25, -1.0});  // (0 - 1) / (2 - 1)
  CHECK(s.shares[0][1][0] == doctest::Approx(0.5));
  CHECK(s.shares[1][1][0] == doctest::Approx(-0.5));  // below the compiler

  // Aggregates by hand. a: {0.5, 1, 0.5}; b: {0.25, -1, -0.5}. n = 3: the IQM trims nothing.
  const experiments::SuiteAggregate g = experiments::aggregate(s);
  CHECK(g.agents[0].iqm == doctest::Approx(2.0 / 3));
  CHECK(g.agents[1].iqm == doctest::Approx(-1.25 / 3));
  CHECK(g.agents[0].median == doctest::Approx(0.5));
  CHECK(g.agents[1].median == doctest::Approx(-0.5));
  CHECK(g.agents[1].mean == doctest::Approx(-1.25 / 3));
  CHECK(g.agents[0].runs == 3);
  // P(a > b): on x every pair of a beats b's (1), on y 0.5 > -0.5 (1); the mean is 1.
  CHECK(g.improvement[0][1] == 1.0);
  CHECK(g.improvement[1][0] == 0.0);
  CHECK(g.improvement[0][0] == 0.5);
  // The profile at 0.6: a has 1 of 3 runs above (1.0), b none; at 0, a all and b 1 (0.25).
  CHECK(g.thresholds[60] == 0.6);
  CHECK(g.profiles[0][60] == doctest::Approx(1.0 / 3));
  CHECK(g.profiles[1][60] == 0.0);
  CHECK(g.profiles[0][0] == 1.0);
  CHECK(g.profiles[1][0] == doctest::Approx(1.0 / 3));
  CHECK(g.agents[0].iqm_interval.low <= g.agents[0].iqm);
  CHECK(g.agents[0].iqm_interval.high >= g.agents[0].iqm);

  CHECK(experiments::suite_csv(g) ==
        "agent,runs,iqm,iqm_low,iqm_high,mean,median,p_improvement_over_a,p_improvement_over_b\n"
        "a,3,0.666667," +
            format_fixed(g.agents[0].iqm_interval.low, 6) + "," +
            format_fixed(g.agents[0].iqm_interval.high, 6) +
            ",0.666667,0.500000,0.500000,1.000000\n"
            "b,3,-0.416667," +
            format_fixed(g.agents[1].iqm_interval.low, 6) + "," +
            format_fixed(g.agents[1].iqm_interval.high, 6) +
            ",-0.416667,-0.500000,0.000000,0.500000\n");
  CHECK(experiments::shares_csv(s).rfind("agent,instance,run,share\na,x@nnpi,0,0.500000\n", 0) ==
        0);
}

TEST_CASE("suite scores: no scored instance is refused") {
  experiments::SuiteScores empty;
  CHECK_THROWS_AS(experiments::aggregate(empty), std::invalid_argument);
}

TEST_CASE("heat map: every row carries its values, and bad shapes are refused") {
  experiments::HeatMap map;
  map.title = "t";
  map.row_labels = {"a", "b"};
  map.column_labels = {"x", "y"};
  map.values = {{0.5, std::nan("")}, {1.25, -0.5}};
  const std::string svg = experiments::render_heat_map(map);
  CHECK(svg.find("data-label=\"a\" data-values=\"0.5 nan\"") != std::string::npos);
  CHECK(svg.find(">125</text>") != std::string::npos);       // percent, clipped colour only
  CHECK(svg.find("fill=\"#0072B2\"") != std::string::npos);  // at or above high: full blue
  map.values.pop_back();
  CHECK_THROWS_AS(experiments::render_heat_map(map), std::invalid_argument);
  map.values = {{0, 0}, {0, 0}};
  map.low = 1;
  CHECK_THROWS_AS(experiments::render_heat_map(map), std::invalid_argument);
}

}  // namespace
}  // namespace memplace
