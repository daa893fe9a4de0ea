// External agents (docs/leaderboard.md, "External agents"): a table row whose runs an agent's own
// code makes. Its config entry (round trip, every bad field named, a name clash refused), the
// runner leaving its cells alone, and its runs scored, counted and recorded as a memplace run's
// (a hand-checked best, the budget enforced, bad mappings named).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/yaml_input.hpp"
#include "experiments/table/external_run.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_runner.hpp"
#include "model/references.hpp"
#include "tests/support/agent_harness.hpp"
#include "tests/support/table_config_refusal.hpp"

namespace memplace {
namespace {

namespace fs = std::filesystem;
using experiments::ExternalRun;
using experiments::TableConfig;
using experiments::TableRunner;
using testing::TempDir;

const char* kTable =
    "agents: [random, mine]\nworkloads: [resnet50]\nseeds: 2\nbudget: 6\n"
    "external:\n  mine: {description: \"my agent\", code: \"here @ 1\", env: single-step}\n"
    "hyperparameters:\n  mine: {net_arch: \"[64, 64]\", lr: 0.0003}\n";

TableConfig parse_config(const std::string& yaml) {
  return TableConfig::parse_yaml(yaml, "table.yaml");
}

TEST_CASE("external agents: a row of its own, recorded in the config and not resolved") {
  TableConfig c = parse_config(kTable);
  c.resolve();
  REQUIRE(c.is_external("mine"));
  CHECK_FALSE(c.is_external("random"));
  CHECK(c.external.at("mine").description == "my agent");
  CHECK(c.external.at("mine").env == "single-step");
  CHECK(c.hyperparameters.at("mine").at("net_arch") == "[64, 64]");  // free-form, as given
  CHECK(c.agent_of("mine") == "mine");
  CHECK_THROWS_AS(c.cell("mine", "resnet50", 0), std::logic_error);
  TableConfig back = parse_config(c.to_yaml());
  back.resolve();
  CHECK(back == c);
  TableConfig plain = parse_config("agents: [random]\n");
  CHECK(plain.to_yaml().find("external") == std::string::npos);  // earlier folders compare equal
}

TEST_CASE("external agents: bad entries and name clashes are named") {
  const auto refused = testing::check_table_config_refused;

  const std::string entry = "{description: d, code: c, env: single-step}";
  refused("agents: [ppo]\nexternal:\n  ppo: " + entry + "\n",
          "external.ppo: 'ppo' is an agent's own name");
  refused("agents: [random]\nexternal:\n  mine: " + entry + "\n", "'mine' is not in agents");
  refused("agents: [mine]\nvariants: {mine: sa}\nexternal:\n  mine: " + entry + "\n",
          "'mine' is a variant too");
  refused("agents: [mine]\nexternal:\n  mine: {description: \"\", code: c, env: single-step}\n",
          "external.mine.description: empty");
  refused("agents: [mine]\nexternal:\n  mine: {description: d, code: c, env: malloc}\n",
          "external.mine.env: 'malloc'");
  refused("agents: [mine]\nexternal:\n  mine: {description: d, code: c}\n", "external.mine.env");
  refused("agents: [mine]\nexternal:\n  mine: {description: d, code: c, env: single-step, x: 1}\n",
          "x");
  refused("agents: [mine]\n", "an agent of your own is an `external` row");
  refused("agents: [my agent]\nexternal:\n  my agent: " + entry + "\n", "cannot hold");
}

TEST_CASE("external agents: what a changed entry means for a table folder") {
  TableConfig saved = parse_config(kTable);
  saved.resolve();
  TableConfig next = saved;
  next.external["mine"].description = "another agent";
  CHECK(experiments::compare_tables(saved, next).meaning ==
        std::vector<std::string>{"external.mine.description: my agent -> another agent"});
  next = saved;
  next.hyperparameters["mine"]["lr"] = "0.001";
  CHECK(experiments::compare_tables(saved, next).changes_meaning());
  // Another external row only adds cells.
  next = saved;
  next.agents.push_back("yours");
  next.external["yours"] = {"d", "c", "sequential"};
  next.resolve();
  const experiments::TableChange change = experiments::compare_tables(saved, next);
  CHECK_FALSE(change.changes_meaning());
  CHECK(change.agents_added == std::vector<std::string>{"yours"});
}

TEST_CASE("external agents: the runner runs memplace's rows and leaves the external ones") {
  TempDir dir;
  TableRunner runner(parse_config(kTable), dir.path / "table");
  const experiments::TableOutcome outcome = runner.run();
  CHECK(outcome.cells.size() == 2);  // random's two seeds
  CHECK(outcome.external_missing == 2);
  CHECK_FALSE(outcome.interrupted);
  CHECK_FALSE(fs::exists(runner.cell_folder("mine", "resnet50", 0)));

  // Its runs, made by "its code": the compiler's mapping, then the all-slowest one.
  ExternalRun run(runner.folder(), "mine", "resnet50", 1);
  const Simulator sim = runner.config().model_of("resnet50").build();
  const Mapping compiler = compiler_mapping(sim);
  const std::vector<std::int64_t> proposal(compiler.begin(), compiler.end());
  std::vector<std::int64_t> slowest(proposal.size(), sim.slowest());
  const agents::Outcome first = run.evaluate(slowest);
  CHECK(first.valid);
  CHECK(first.speedup ==
        doctest::Approx(double(sim.evaluate(compiler).latency_fs) /
                        double(sim.evaluate(Mapping(slowest.begin(), slowest.end())).latency_fs)));
  CHECK(run.evaluate(proposal).speedup == 1.0);
  CHECK(run.evaluations() == 2);

  // Bad mappings change nothing.
  CHECK_THROWS_WITH_AS(run.evaluate(std::vector<std::int64_t>(3, 0)),
                       doctest::Contains("a mapping of 3 memories; resnet50 has"), InputError);
  std::vector<std::int64_t> bad = proposal;
  bad[4] = 9;
  CHECK_THROWS_WITH_AS(run.evaluate(bad), doctest::Contains("mapping[4] = 9: not a memory"),
                       InputError);
  CHECK(run.evaluations() == 2);

  // The budget (6): four more, then every evaluation is refused.
  for (int k = 0; k < 4; ++k)
    run.evaluate(slowest);
  CHECK_THROWS_AS(run.require_budget_left(), experiments::BudgetExhausted);
  CHECK_THROWS_AS(run.evaluate(proposal), experiments::BudgetExhausted);
  const experiments::CellResult result =
      run.finish("stopped at the budget of 6 evaluations", {{"env", "an env id"}});
  CHECK(result.evaluations == 6);
  CHECK(result.best_speedup == 1.0);  // the compiler's own mapping beats the all-slowest one
  CHECK(result.found_valid);
  CHECK(result.evaluations_to_95 == (first.speedup >= 0.95 ? 1u : 2u));
  const fs::path folder = runner.cell_folder("mine", "resnet50", 1);
  for (const char* file : {"result.yaml", "curve.csv", "best_mapping.yaml", "run.yaml"})
    CHECK_MESSAGE(fs::exists(folder / file), file);
  const auto facts =
      experiments::parse_external_run_yaml(YamlInput::read_file(folder / "run.yaml"), "run.yaml");
  CHECK(facts.at("status") == "stopped at the budget of 6 evaluations");
  CHECK(facts.at("env") == "an env id");

  // The table reads it back; a finished run is not reopened; an unknown cell is named.
  const experiments::TableOutcome finished = runner.finished();
  CHECK(finished.cells.size() == 3);
  CHECK(finished.external_missing == 1);
  CHECK_THROWS_WITH_AS(ExternalRun(runner.folder(), "mine", "resnet50", 1),
                       doctest::Contains("the run has finished"), InputError);
  CHECK_THROWS_WITH_AS(ExternalRun(runner.folder(), "random", "resnet50", 0),
                       doctest::Contains("'random' is not an external agent"), InputError);
  CHECK_THROWS_WITH_AS(ExternalRun(runner.folder(), "mine", "resnet50", 2),
                       doctest::Contains("seed 2 is not one"), InputError);
}

}  // namespace
}  // namespace memplace
