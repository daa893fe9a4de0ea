// The baseline table: its config (defaults, round trip, every bad field named), its statistics on
// hand-computed cases, and the runner on toy problems (independent of the number of jobs; a
// stopped table completes only its missing runs, to the same result).
#include <doctest/doctest.h>

#include <cmath>

#include <filesystem>
#include <sstream>

#include "agents/training/run_folder.hpp"
#include "base/atomic_file.hpp"
#include "base/yaml_input.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_references.hpp"
#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"
#include "model/inputs/workload.hpp"
#include "model/references.hpp"
#include "tests/support/agent_harness.hpp"
#include "tests/support/table_config_refusal.hpp"

namespace memplace {
namespace {

using experiments::CellResult;
using experiments::ConfigChange;
using experiments::TableChange;
using experiments::TableConfig;
using experiments::TableRunner;
using testing::TempDir;

TableConfig parse(const std::string& yaml) {
  return TableConfig::parse_yaml(yaml, "table.yaml");
}

TEST_CASE("table config: the defaults are EGRL's comparison and survive a YAML round trip") {
  TableConfig c;
  c.resolve();
  CHECK(c.agents ==
        std::vector<std::string>{"egrl", "ea", "sac", "ppo", "mcts", "greedy-dp", "sa", "random"});
  CHECK(c.workloads == std::vector<std::string>{"resnet50", "resnet101", "bert-base"});
  CHECK(c.seeds == 5);
  CHECK(c.hyperparameters.at("egrl").at("population") == "20");  // defaults filled in
  TableConfig back = parse(c.to_yaml());
  back.resolve();
  CHECK(back == c);

  TableConfig custom = parse(
      "agents: [sa, ea]\nworkloads: [resnet50]\nseeds: 2\nbudget: 300\njobs: 1\n"
      "hyperparameters:\n  sa: {t_start: 0.5}\nenv_options: {invalid: rectify}\n");
  custom.resolve();
  CHECK(custom.hyperparameters.at("sa").at("t_start") == "0.5");
  const agents::TrainConfig cell = custom.cell("sa", "resnet50", 1);
  CHECK(cell.seed == 1);
  CHECK(cell.budget == 300);
  CHECK(cell.threads == 1);
  CHECK(cell.env_options().at("invalid") == "rectify");
  CHECK(cell.hyperparameters.at("t_start") == "0.5");

  // env_version v1: every cell trains under the streaming dynamics, the references are v1's.
  TableConfig v1 =
      parse("agents: [sa]\nworkloads: [resnet101]\nenv_version: v1\nenv_options: {lookahead: 4}\n");
  v1.resolve();
  CHECK(v1.cell("sa", "resnet101", 0).env_version == ModelVersion::v1);
  CHECK(v1.env_options().at("dynamics") == "streaming");
  TableConfig v1_back = parse(v1.to_yaml());
  v1_back.resolve();
  CHECK(v1_back == v1);
  CHECK(c.env_version == ModelVersion::v1);  // the default since cost model v1
  CHECK(c.to_yaml().find("env_version: v1\n") != std::string::npos);
  TableConfig v0 = parse("agents: [sa]\nenv_version: v0\n");
  v0.resolve();
  TableConfig v0_back = parse(v0.to_yaml());
  v0_back.resolve();
  CHECK(v0_back.env_version == ModelVersion::v0);
  Hardware hw = load_hardware("nnpi");
  hw.dma.lookahead = 4;
  const Simulator streaming(load_workload("resnet101"), hw,
                            {.memory_time = std::nullopt, .dynamics = Dynamics::streaming});
  const ReferenceLatencies r = reference_latencies(streaming);
  const std::vector<experiments::WorkloadReference> refs = experiments::workload_references(v1);
  CHECK(refs.at(0).capacity_free_bound_speedup ==
        doctest::Approx(speedup(r.compiler_fs, r.lower_bound_fs)));
  CHECK(refs.at(0).optimum_speedup == 0);  // certificates are the pinned model's
  CHECK_THROWS_WITH_AS(parse("env_version: v3\n").resolve(), doctest::Contains("env_version"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse("agents: [sa]\nenv_version: v3\n"),
                       doctest::Contains("table.yaml:2: env_version"), InputError);
}

TEST_CASE("table config: a variant runs its agent under its own name and hyperparameters") {
  TableConfig c = parse(
      "agents: [sa, sa-hot]\nworkloads: [resnet50]\nvariants: {sa-hot: sa}\n"
      "hyperparameters:\n  sa-hot: {t_start: 0.5}\n");
  c.resolve();
  CHECK(c.agent_of("sa-hot") == "sa");
  CHECK(c.agent_of("sa") == "sa");
  const agents::TrainConfig hot = c.cell("sa-hot", "resnet50", 2);
  CHECK(hot.agent == "sa");
  CHECK(hot.hyperparameters.at("t_start") == "0.5");
  CHECK(c.cell("sa", "resnet50", 2).hyperparameters.at("t_start") == "0.1");
  TableConfig back = parse(c.to_yaml());
  back.resolve();
  CHECK(back == c);
  // Without variants the YAML is as before they existed, so earlier table folders still match.
  TableConfig plain;
  plain.resolve();
  CHECK(plain.to_yaml().find("variants") == std::string::npos);
}

TEST_CASE("table config: a change of agents, workloads and seeds only adds or drops cells") {
  TableConfig saved = parse(
      "agents: [sa, sa-hot]\nworkloads: [resnet50]\nseeds: 2\nvariants: {sa-hot: sa}\n"
      "hyperparameters:\n  sa-hot: {t_start: 0.5}\n");
  saved.resolve();
  auto changed = [&](const std::string& yaml) {
    TableConfig next = parse(yaml);
    next.resolve();
    return experiments::compare_tables(saved, next);
  };
  // More agents (with hyperparameters of their own), workloads and seeds; fewer agents.
  TableChange grown = changed(
      "agents: [ea, sa, sa-hot]\nworkloads: [resnet50, bert-base]\nseeds: 3\njobs: 2\n"
      "variants: {sa-hot: sa}\nhyperparameters:\n  sa-hot: {t_start: 0.5}\n"
      "  ea: {population: 10}\n");
  CHECK_FALSE(grown.changes_meaning());
  CHECK(experiments::describe_cells_change(grown) ==
        "agents +ea, workloads +bert-base, seeds 2 -> 3");
  TableChange narrowed = changed("agents: [sa]\nworkloads: [resnet50]\nseeds: 1\n");
  CHECK_FALSE(narrowed.changes_meaning());
  CHECK(experiments::describe_cells_change(narrowed) == "agents -sa-hot, seeds 2 -> 1");
  TableChange reordered = changed(
      "agents: [sa-hot, sa]\nworkloads: [resnet50]\nseeds: 2\nvariants: {sa-hot: sa}\n"
      "hyperparameters:\n  sa-hot: {t_start: 0.5}\n");
  CHECK_FALSE(reordered.changes_meaning());
  CHECK(experiments::describe_cells_change(reordered) == "lists reordered");
  // What a finished run means, each named with its values.
  auto meaning = [&](const std::string& extra, const std::string& field) {
    CAPTURE(extra);
    const TableChange change = changed(
        "agents: [sa, sa-hot]\nworkloads: [resnet50]\nseeds: 2\nvariants: {sa-hot: sa}\n" + extra);
    REQUIRE(change.meaning.size() >= 1);
    CHECK(change.meaning.front() == field);
  };
  const std::string hot = "hyperparameters:\n  sa-hot: {t_start: 0.5}\n";
  meaning("budget: 300\n" + hot, "budget: 20000 -> 300");
  meaning("hardware: edge-tpu\n" + hot, "hardware: nnpi -> edge-tpu");
  meaning("env_version: v0\n" + hot, "env_version: v1 -> v0");
  meaning("env_options: {invalid: rectify}\n" + hot, "env_options.invalid: penalize -> rectify");
  meaning("hyperparameters:\n  sa-hot: {t_start: 0.7}\n",
          "hyperparameters.sa-hot.t_start: 0.5 -> 0.7");
  meaning("hyperparameters:\n  sa: {t_start: 0.7}\n  sa-hot: {t_start: 0.5}\n",
          "hyperparameters.sa.t_start: 0.1 -> 0.7");
}

TEST_CASE("table config: bad fields are refused with the file, line and field named") {
  const auto refused = testing::check_table_config_refused;

  refused("agents: [sa]\nbudgett: 5\n", "table.yaml:2");
  refused("agents: [sa, sa]\n", "agents: 'sa' is listed twice");
  refused("agents: [nobody]\n", "unknown agent 'nobody'");
  refused("agents: []\n", "agents: empty");
  refused("seeds: 0\n", "seeds: must be in 1..1000");
  refused("seeds: -3\n", "seeds");
  refused("budget: nan\n", "budget");
  refused("agents: [sa]\nhyperparameters: {ea: {population: 10}}\n", "'ea' is not in agents");
  refused("agents: [sa]\nhyperparameters: {sa: {t_begin: 1}}\n",
          "table.yaml:2: hyperparameters.sa: agent 'sa': unknown option 't_begin'");
  refused("agents: [sa, hot]\nvariants: {hot: sa}\nhyperparameters:\n  hot: {start: warm}\n",
          "table.yaml:4: hyperparameters.hot: agent 'sa': option 'start'");
  refused("env_options: {reward: cheers}\n", "reward");
  refused("agents: sa\n", "agents");
  refused("agents: [sa]\nvariants: {hot: sa}\n", "variants.hot: 'hot' is not in agents");
  refused("agents: [sa, ea]\nvariants: {ea: sa}\n", "variants.ea: 'ea' is an agent's own name");
  refused("agents: [sa, hot]\nvariants: {hot: nobody}\n", "variants.hot: unknown agent 'nobody'");
  refused("agents: [sa, 'a/b']\nvariants: {'a/b': sa}\n", "names run folders");
  refused("agents: [sa, hot]\nvariants: [hot]\n", "table.yaml:2: variants");
  refused("agents: [sa, hot]\n", "unknown agent 'hot'");  // a variant needs its agent named
  // Values the agent itself checks, and workloads that do not load, are refused before anything
  // is written.
  TempDir dir;
  auto refused_by_runner = [&](const std::string& yaml, const std::string& message) {
    CAPTURE(yaml);
    CHECK_THROWS_WITH_AS(TableRunner(parse(yaml), dir.path / "t"),
                         doctest::Contains(message.c_str()), InputError);
    CHECK_FALSE(std::filesystem::exists(dir.path / "t"));
  };
  refused_by_runner("agents: [sa]\nhyperparameters: {sa: {t_start: hot}}\n", "t_start");
  refused_by_runner("agents: [ea]\nhyperparameters: {ea: {population: 2}}\n", "population");
  refused_by_runner("agents: [sa]\nworkloads: [resnet50, no-such-net]\n", "no-such-net");
}

CellResult cell(const std::string& agent, std::uint64_t seed, double speedup, std::uint64_t to_95) {
  CellResult c;
  c.agent = agent;
  c.workload = "resnet50";
  c.seed = seed;
  c.evaluations = 100;
  c.found_valid = speedup > 0;
  c.best_speedup = speedup;
  c.evaluations_to_95 = to_95;
  c.wall_seconds = 2;
  return c;
}

TEST_CASE("table report: mean, sample standard deviation, best, worst and evaluations to 95 %") {
  TableConfig config;
  config.set_env_version(ModelVersion::v0);  // the optimum's section; v1's is checked below
  config.agents = {"sa", "random"};
  config.workloads = {"resnet50"};
  config.seeds = 3;
  const std::vector<CellResult> cells = {cell("sa", 0, 1.0, 10), cell("sa", 1, 1.2, 30),
                                         cell("sa", 2, 1.4, 50), cell("random", 0, 0.5, 40),
                                         cell("random", 1, 0, 0)};
  const std::vector<experiments::TableRow> rows = experiments::summarize(config, cells);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].agent == "sa");
  CHECK(rows[0].seeds == 3);
  CHECK(rows[0].mean_speedup == doctest::Approx(1.2));
  CHECK(rows[0].std_speedup == doctest::Approx(0.2));  // sqrt((0.04 + 0 + 0.04) / 2)
  CHECK(rows[0].best_speedup == 1.4);
  CHECK(rows[0].worst_speedup == 1.0);
  CHECK(rows[0].mean_evaluations_to_95 == doctest::Approx(30));
  // A run without a valid mapping counts 0 in the speedups, not in the evaluations to 95 %.
  CHECK(rows[1].seeds == 2);
  CHECK(rows[1].valid_seeds == 1);
  CHECK(rows[1].mean_speedup == doctest::Approx(0.25));
  CHECK(rows[1].mean_evaluations_to_95 == doctest::Approx(40));
  const std::string md = experiments::table_markdown(config, rows, 1);
  CHECK(md.find("| sa | **1.2000 ± 0.2000** (50 %) |") != std::string::npos);
  CHECK(md.find("Incomplete: 1 run is not finished") != std::string::npos);
  const std::string csv = experiments::table_csv(rows);
  // Without references the best known is the table's best run (sa's 1.4): sa's mean 1.2 gets half
  // of that gain; there is no optimum and no bound.
  CHECK(csv.find("resnet50,sa,3,3,1.200000,0.200000,1.400000,1.000000,30.0,100.0,,0.500000,"
                 "0.166667,1.400000,,\n") != std::string::npos);
  // The wall times go to timing.csv (table.csv is the same on every rerun).
  CHECK(experiments::timing_csv(rows) ==
        "workload,agent,seeds,mean_wall_seconds\nresnet50,sa,3,2.00\nresnet50,random,2,2.00\n");

  // Against a proven optimum of 1.5: sa's mean 1.2 gets 40 % of the gain and is 25 % slower.
  const std::vector<experiments::WorkloadReference> refs = {
      {.workload = "resnet50",
       .optimum_speedup = 1.5,
       .optimum_proven = true,
       .optimum_bound_speedup = 1.5,
       .capacity_free_bound_speedup = 1.6,
       .best_known_speedup = 1.5,
       .best_known_source = "workloads/optimum/resnet50.nnpi.max.yaml",
       .bound_speedup = 1.5,
       .all_fast_rectified_speedup = 1.1}};
  const auto shared = experiments::summarize(config, cells, refs);
  CHECK(shared[0].share_of_gain == doctest::Approx(0.4));
  CHECK(shared[0].gap_to_optimum == doctest::Approx(0.25));
  CHECK(shared[0].share_of_bound_gain == doctest::Approx(0.4));
  CHECK(shared[1].share_of_gain == doctest::Approx(-1.5));  // 0.25 is below the compiler
  const std::string shared_md = experiments::table_markdown(config, shared, 0, refs);
  CHECK(shared_md.find("| sa | **1.2000 ± 0.2000** (40 %) |") != std::string::npos);
  // The reference rows under the agents'.
  CHECK(shared_md.find("| *compiler* | 1.0000 |\n| *all-fast + rectify* | 1.1000 (20 %) |\n"
                       "| *best known* | 1.5000 (optimum) |\n| *bound* | 1.5000 |\n") !=
        std::string::npos);
  CHECK(shared_md.find("| resnet50 | 1.5000 | 1.6000 |") != std::string::npos);
  CHECK(shared_md.find("| 40 % | 25.00 % | 40 % |") != std::string::npos);
  CHECK(experiments::table_csv(shared).find(",1.500000,0.400000,0.250000,1.500000,1.500000,"
                                            "0.400000\n") != std::string::npos);

  // Under v1 there is no optimum: the best known is the better of the shipped mapping and the
  // table's best run, and the bound gives a floor on the share.
  TableConfig streaming = config;
  streaming.set_env_version(ModelVersion::v1);
  experiments::WorkloadReference v1 = {
      .workload = "resnet50",
      .best_known_speedup = 1.3,
      .best_known_source = "workloads/best-known/resnet50.nnpi.yaml",
      .bound_speedup = 1.8,
      .all_fast_rectified_speedup = 0.9};
  auto scored = experiments::summarize(streaming, cells, std::span(&v1, 1));
  CHECK(scored[0].share_of_gain == doctest::Approx(0.5));  // against the table's 1.4
  CHECK(scored[0].share_of_bound_gain == doctest::Approx(0.25));
  std::string v1_md = experiments::table_markdown(streaming, scored, 0, std::span(&v1, 1));
  CHECK(v1_md.find("| resnet50 | 1.4000 | this table | 1.8000 |") != std::string::npos);
  CHECK(v1_md.find("| *all-fast + rectify* | 0.9000 (-25 %) |") != std::string::npos);
  CHECK(v1_md.find("| *best known* | 1.4000 |") != std::string::npos);
  v1.best_known_speedup = 1.6;
  scored = experiments::summarize(streaming, cells, std::span(&v1, 1));
  CHECK(scored[0].share_of_gain == doctest::Approx(1.0 / 3));  // against the shipped 1.6
  v1_md = experiments::table_markdown(streaming, scored, 0, std::span(&v1, 1));
  CHECK(v1_md.find("| resnet50 | 1.6000 | `workloads/best-known/resnet50.nnpi.yaml` | 1.8000 |") !=
        std::string::npos);
  // No share when the optimum is the compiler: nothing to win.
  CHECK(std::isnan(experiments::share_of_gain(1.0, 1.0)));
  CHECK(experiments::share_of_gain(1.0, 1.1) == doctest::Approx(0.0));
  // Nor below 0.1 % to win (a share of it would magnify noise); at 0.2 % there is one.
  CHECK(std::isnan(experiments::share_of_gain(0.99, 1.0001)));
  CHECK(experiments::share_of_gain(1.001, 1.002) == doctest::Approx(0.5));
}

TEST_CASE(
    "table runner: a result's evaluations to 95 % come from its curve, and result.yaml round "
    "trips") {
  const std::vector<agents::CurveRow> curve = {
      {10, 0.1, 0, 0, 0}, {20, 0.2, 0.5, 0.4, 1}, {30, 0.3, 0.96, 0.5, 1}, {40, 0.4, 1.0, 0.6, 1}};
  const CellResult r = experiments::cell_result("sa", "bert-base", 4, curve);
  CHECK(r.evaluations == 40);
  CHECK(r.found_valid);
  CHECK(r.best_speedup == 1.0);
  CHECK(r.evaluations_to_95 == 30);  // 0.96 >= 0.95 x 1.0
  const CellResult back =
      experiments::parse_result_yaml(experiments::result_yaml(r), "result.yaml");
  CHECK(back.agent == "sa");
  CHECK(back.workload == "bert-base");
  CHECK(back.seed == 4);
  CHECK(back.best_speedup == r.best_speedup);
  CHECK(back.evaluations_to_95 == 30);
  CHECK(back.agent_status.empty());
  CellResult with_status = r;
  with_status.agent_status = "generation 3, migrants elite 1/2";
  CHECK(experiments::parse_result_yaml(experiments::result_yaml(with_status), "result.yaml")
            .agent_status == with_status.agent_status);
  CHECK_THROWS_WITH_AS(experiments::parse_result_yaml("agent: sa\n", "x/result.yaml"),
                       doctest::Contains("x/result.yaml"), InputError);
}

// The table.csv of an outcome (no wall times: byte for byte reproducible).
std::string csv_of(const experiments::TableOutcome& outcome, const TableConfig& config) {
  return experiments::table_csv(experiments::summarize(config, outcome.cells));
}

TableConfig toy_table(const testing::ToyProblem& toy, int jobs) {
  TableConfig c;
  c.agents = {"ea", "sa", "ppo"};
  c.workloads = {toy.workload.string()};
  c.model.hardware = toy.hardware.string();
  c.seeds = 2;
  c.budget = 400;
  c.jobs = jobs;
  return c;
}

TEST_CASE("table runner: the same table on 1 and 2 jobs, and a rerun runs nothing") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  TableRunner one(toy_table(toy, 1), dir.path / "one");
  const experiments::TableOutcome a = one.run();
  CHECK(a.cells.size() == 6);
  CHECK(a.cells_run == 6);
  CHECK_FALSE(a.interrupted);
  TableRunner two(toy_table(toy, 2), dir.path / "two");
  const experiments::TableOutcome b = two.run();
  CHECK(csv_of(a, one.config()) == csv_of(b, two.config()));
  // Rerun in the same folder (with another jobs count, which changes nothing): all read back.
  TableRunner again(toy_table(toy, 2), dir.path / "one");
  const experiments::TableOutcome c = again.run();
  CHECK(c.cells_run == 0);
  CHECK(csv_of(c, again.config()) == csv_of(a, one.config()));
  // Another config in the same folder is refused.
  TableConfig other = toy_table(toy, 1);
  other.budget = 500;
  CHECK_THROWS_WITH_AS(TableRunner(other, dir.path / "one"), doctest::Contains("another config"),
                       InputError);
  // Or, asked to, the earlier table is moved aside whole (twice: to the next free name) and the
  // new one starts afresh.
  for (const int n : {1, 2}) {
    CAPTURE(n);
    TableRunner moved(other, dir.path / "one/", single_process(), ConfigChange::move_aside);
    const std::filesystem::path aside = dir.path / ("one.previous-" + std::to_string(n));
    CHECK(moved.moved_aside_to() == aside);
    CHECK(std::filesystem::exists(aside / "config.yaml"));
    CHECK(moved.run().cells_run == 6);
    other.budget += 100;
  }
  TableRunner earlier(toy_table(toy, 2), dir.path / "one.previous-1");
  CHECK(csv_of(earlier.run(), earlier.config()) == csv_of(a, one.config()));  // intact
  // The same config is no change: nothing moves.
  TableRunner same(toy_table(toy, 1), dir.path / "two", single_process(), ConfigChange::move_aside);
  CHECK(same.moved_aside_to().empty());
  CHECK(same.run().cells_run == 0);
}

TEST_CASE("table runner: a table extended with an agent and a seed is the table made in one go") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  TableConfig first = toy_table(toy, 2);
  first.agents = {"sa"};
  first.seeds = 1;
  CHECK(TableRunner(first, dir.path / "grown").run().cells_run == 1);
  TableConfig whole = toy_table(toy, 2);
  whole.agents = {"ea", "sa"};  // the new agent first: the report follows the new config
  TableRunner grown(whole, dir.path / "grown");
  REQUIRE(grown.extension());
  CHECK(experiments::describe_extension(*grown.extension()) ==
        "agents +ea, seeds 1 -> 2 (3 new runs; 1 finished run kept)");
  const experiments::TableOutcome extended = grown.run();
  CHECK(extended.cells_run == 3);  // only the missing cells
  CHECK(extended.cells.size() == 4);
  TableRunner at_once(whole, dir.path / "at-once");
  CHECK_FALSE(at_once.extension());
  const experiments::TableOutcome expected = at_once.run();
  CHECK(csv_of(extended, grown.config()) == csv_of(expected, at_once.config()));
  // config.yaml is the new config now: a rerun is no change.
  TableRunner again(whole, dir.path / "grown");
  CHECK_FALSE(again.extension());
  CHECK(again.run().cells_run == 0);
}

TEST_CASE("table runner: a change of what finished runs mean is refused, naming the field") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  TableConfig first = toy_table(toy, 2);
  first.agents = {"sa"};
  first.seeds = 1;
  TableRunner(first, dir.path / "t").run();
  TableConfig more = first;
  more.agents = {"sa", "ea"};
  more.budget = 500;
  CHECK_THROWS_WITH_AS(TableRunner(more, dir.path / "t"),
                       doctest::Contains("would change meaning: budget: 400 -> 500 ("), InputError);
  TableConfig hotter = first;
  hotter.hyperparameters = {{"sa", {{"t_start", "3"}}}};
  CHECK_THROWS_WITH_AS(TableRunner(hotter, dir.path / "t"),
                       doctest::Contains("hyperparameters.sa.t_start: 0.1 -> 3"), InputError);
  CHECK_THROWS_WITH_AS(TableRunner(hotter, dir.path / "t"),
                       doctest::Contains("--if-config-differs move-aside"), InputError);
  CHECK(TableConfig::load(dir.path / "t" / "config.yaml").budget == 400);  // left as it was
}

TEST_CASE("table runner: a dropped agent's runs stay on disk, out of the report, until re-added") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  TableConfig both = toy_table(toy, 2);
  both.agents = {"ea", "sa"};
  both.seeds = 1;
  const std::filesystem::path folder = dir.path / "t";
  TableRunner made(both, folder);
  const experiments::TableOutcome whole = made.run();
  TableConfig ea_only = both;
  ea_only.agents = {"ea"};
  TableRunner narrowed(ea_only, folder);
  REQUIRE(narrowed.extension());
  CHECK(experiments::describe_extension(*narrowed.extension()) ==
        "agents -sa (0 new runs; 1 finished run kept; 1 dropped run left out of the report, "
        "their folders stay in runs/)");
  const experiments::TableOutcome outcome = narrowed.run();
  CHECK(outcome.cells_run == 0);
  REQUIRE(outcome.cells.size() == 1);
  CHECK(outcome.cells[0].agent == "ea");
  CHECK(csv_of(outcome, narrowed.config()).find(",sa,") == std::string::npos);
  const std::string workload = toy.workload.string();
  CHECK(std::filesystem::exists(narrowed.cell_folder("sa", workload, 0) / "result.yaml"));
  // Re-added under another meaning, its folder is not taken for the new row's run ...
  TableConfig hot_sa = both;
  hot_sa.hyperparameters = {{"sa", {{"t_start", "3"}}}};
  CHECK_THROWS_WITH_AS(TableRunner(hot_sa, folder),
                       doctest::Contains("holds a run of another config"), InputError);
  // ... nor is a workload of the same label from another file ...
  std::filesystem::create_directories(dir.path / "twin");
  const testing::ToyProblem twin = testing::make_toy_problem(dir.path / "twin", 2);
  TableConfig other_file = ea_only;
  other_file.workloads = {twin.workload.string()};
  CHECK_THROWS_WITH_AS(TableRunner(other_file, folder),
                       doctest::Contains("holds a run of another config"), InputError);
  // ... while as it was, its finished run is read back.
  TableRunner readded(both, folder);
  const experiments::TableOutcome back = readded.run();
  CHECK(back.cells_run == 0);
  CHECK(csv_of(back, readded.config()) == csv_of(whole, made.config()));
}

TEST_CASE("table runner: a folder from before v1 was the default is a v0 table") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  TableConfig v0 = toy_table(toy, 2);
  v0.set_env_version(ModelVersion::v0);
  TableRunner(v0, dir.path / "old").run();
  // Its config.yaml as written then: without env_version.
  const std::filesystem::path saved = dir.path / "old" / "config.yaml";
  std::string text = YamlInput::read_file(saved);
  const std::size_t line = text.find("env_version: v0\n");
  REQUIRE(line != std::string::npos);
  text.erase(line, std::string("env_version: v0\n").size());
  write_file_atomically(saved, text);
  // Its runs are not taken for v1 ones; as v0 it resumes with nothing left to run.
  CHECK_THROWS_WITH_AS(TableRunner(toy_table(toy, 2), dir.path / "old"),
                       doctest::Contains("another config"), InputError);
  CHECK(TableRunner(v0, dir.path / "old").run().cells_run == 0);
}

TEST_CASE("table runner: a stopped table completes only its missing runs, to the same result") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 3);
  TableRunner whole(toy_table(toy, 1), dir.path / "whole");
  const experiments::TableOutcome expected = whole.run();

  TableRunner parts(toy_table(toy, 1), dir.path / "parts");
  int polls = 0;
  const experiments::TableOutcome stopped = parts.run({}, [&] { return ++polls > 40; });
  CHECK(stopped.interrupted);
  CHECK(stopped.cells.size() < 6);
  const std::size_t missing = 6 - stopped.cells.size();
  TableRunner rest(toy_table(toy, 1), dir.path / "parts");
  const experiments::TableOutcome completed = rest.run();
  CHECK_FALSE(completed.interrupted);
  CHECK(completed.cells_run == missing);
  CHECK(csv_of(completed, rest.config()) == csv_of(expected, whole.config()));
}

TEST_CASE("table runner: a variant's runs are its agent's runs with its hyperparameters") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  TableConfig ablation = toy_table(toy, 2);
  ablation.agents = {"sa", "sa-hot"};
  ablation.variants = {{"sa-hot", "sa"}};
  ablation.hyperparameters = {{"sa-hot", {{"t_start", "3"}}}};
  TableRunner runner(ablation, dir.path / "ablation");
  const experiments::TableOutcome outcome = runner.run();
  REQUIRE(outcome.cells.size() == 4);
  CHECK(outcome.cells[2].agent == "sa-hot");
  const agents::TrainConfig saved = agents::TrainConfig::load(
      agents::RunFolder{runner.cell_folder("sa-hot", toy.workload.string(), 1)}.config());
  CHECK(saved.agent == "sa");
  CHECK(saved.hyperparameters.at("t_start") == "3");
  // The same cells as a table of sa alone with those hyperparameters.
  TableConfig hot = toy_table(toy, 2);
  hot.agents = {"sa"};
  hot.hyperparameters = {{"sa", {{"t_start", "3"}}}};
  const experiments::TableOutcome alone = TableRunner(hot, dir.path / "hot").run();
  REQUIRE(alone.cells.size() == 2);
  for (std::size_t seed = 0; seed < 2; ++seed) {
    CHECK(outcome.cells[2 + seed].best_speedup == alone.cells[seed].best_speedup);
    CHECK(outcome.cells[2 + seed].evaluations_to_95 == alone.cells[seed].evaluations_to_95);
  }
  // The agent's final status line is kept in result.yaml (egrl's migrant counts, for one).
  CHECK_FALSE(outcome.cells[2].agent_status.empty());
  CHECK(outcome.cells[2].agent_status == alone.cells[0].agent_status);
}

}  // namespace
}  // namespace memplace
