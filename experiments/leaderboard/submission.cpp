#include "experiments/leaderboard/submission.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include "agents/registry.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/markdown_table.hpp"
#include "base/number_format.hpp"
#include "base/yaml_input.hpp"
#include "experiments/charts/table_plots.hpp"
#include "experiments/table/external_run.hpp"
#include "experiments/table/table_references.hpp"
#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"
#include "model/mapping_io.hpp"
#include "model/references.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;

// A run folder's files (docs/leaderboard.md, "The run folder"): config.yaml for memplace's own
// agents, run.yaml for external ones.
constexpr const char* kRunFiles[] = {"result.yaml", "curve.csv", "best_mapping.yaml", "config.yaml",
                                     "run.yaml"};

// The config of a suite table folder, every run of which has finished.
TableConfig load_suite_table_config(const fs::path& folder) {
  const fs::path file = folder / "config.yaml";
  TableConfig config = TableConfig::load(file);
  config.resolve();
  if (config.suite.empty())
    throw InputError(file.string() + ": not a suite table (no `suite` key; docs/table.md)");
  return config;
}

// A run's instance, scored as its environment scored it.
struct Instance {
  Simulator sim;
  TimeFs compiler_fs = 0;
};

bool same_speedup(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

// Re-scores one run; its claims that do not hold go into `check`.
CellResult rescore_run(const fs::path& run, const std::string& agent, const std::string& instance,
                       std::uint64_t seed, const TableConfig& config, const Instance& scored,
                       SubmissionCheck& check) {
  const std::string where = run.filename().string();
  const fs::path result_file = run / "result.yaml";
  const CellResult claimed =
      parse_result_yaml(YamlInput::read_file(result_file), result_file.string());
  if (claimed.agent != agent || claimed.workload != instance || claimed.seed != seed)
    throw InputError(result_file.string() + ": the result of " + claimed.agent + " on " +
                     claimed.workload + ", seed " + std::to_string(claimed.seed) + ", not of " +
                     agent + " on " + instance + ", seed " + std::to_string(seed));
  const std::vector<agents::CurveRow> curve = read_curve_csv(run / "curve.csv");
  if (config.is_external(agent)) {
    const fs::path facts = run / "run.yaml";
    if (!fs::exists(facts))
      throw InputError(facts.string() + ": missing (an external agent's run records the env it " +
                       "played and the libraries it ran on there; docs/leaderboard.md)");
    parse_external_run_yaml(YamlInput::read_file(facts), facts.string());
  }
  auto claim_fails = [&](const std::string& what) { check.discrepancies.push_back({where, what}); };

  CellResult rescored = claimed;
  rescored.found_valid = false;
  rescored.best_speedup = 0;
  if (claimed.found_valid) {
    const MappingFile file = load_mapping(run / "best_mapping.yaml", scored.sim);
    const Evaluation eval = scored.sim.evaluate(file.mapping);
    if (!eval.valid) {
      claim_fails("best_mapping.yaml does not fit the memories of " + instance);
    } else {
      rescored.found_valid = true;
      rescored.best_speedup = speedup(scored.compiler_fs, eval.latency_fs);
      if (!same_speedup(rescored.best_speedup, claimed.best_speedup, 1e-12))
        claim_fails("claims a best speedup of " + format_significant(claimed.best_speedup, 12) +
                    "; its best_mapping.yaml scores " +
                    format_significant(rescored.best_speedup, 12));
    }
    if (file.recorded && file.recorded->latency_fs != eval.latency_fs)
      claim_fails("best_mapping.yaml records a latency of " +
                  std::to_string(file.recorded->latency_fs) + " fs; it scores " +
                  std::to_string(eval.latency_fs) + " fs");
  } else if (claimed.best_speedup != 0) {
    claim_fails("claims no valid mapping but a best speedup of " +
                format_significant(claimed.best_speedup, 12));
  }
  if (curve.empty()) {
    claim_fails("curve.csv has no rows");
  } else {
    if (curve.back().evaluations != claimed.evaluations)
      claim_fails("curve.csv ends at " + std::to_string(curve.back().evaluations) +
                  " evaluations; result.yaml claims " + std::to_string(claimed.evaluations));
    if (!same_speedup(curve.back().best_speedup, claimed.best_speedup, 1e-9))
      claim_fails("curve.csv ends at a best speedup of " +
                  format_significant(curve.back().best_speedup, 10) + "; result.yaml claims " +
                  format_significant(claimed.best_speedup, 10));
    for (std::size_t i = 1; i < curve.size(); ++i)
      if (curve[i].best_speedup < curve[i - 1].best_speedup ||
          curve[i].evaluations <= curve[i - 1].evaluations) {
        claim_fails("curve.csv: row " + std::to_string(i + 1) +
                    " goes back in evaluations or best speedup");
        break;
      }
  }
  if (claimed.evaluations > config.budget)
    claim_fails("spent " + std::to_string(claimed.evaluations) +
                " evaluations, over the budget of " + std::to_string(config.budget));
  return rescored;
}

void write_agents(std::ostringstream& out, const std::map<std::string, std::string>& agents) {
  out << "agents:\n";
  for (const auto& [row, about] : agents)
    out << "  " << row << ": " << yaml_quoted(about) << "\n";
}

std::string today() {
  const auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day date{now};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  return text;
}

}  // namespace

std::string Submission::to_yaml() const {
  std::ostringstream out;
  out << "# memplace submission (docs/leaderboard.md): `memplace submission check` re-checks it.\n"
      << "name: " << yaml_quoted(name) << "\n"
      << "authors: " << yaml_quoted(authors) << "\n"
      << "code: " << yaml_quoted(code) << "\n"
      << "memplace: " << yaml_quoted(memplace) << "\n"
      << "date: " << yaml_quoted(date) << "\n";
  write_agents(out, agents);
  return out.str();
}

Submission Submission::parse_yaml(std::string_view text, std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  in.require_map(root, "submission");
  in.reject_unknown_keys(root, {"name", "authors", "code", "memplace", "date", "agents"},
                         "submission");
  Submission s;
  auto field = [&](const char* key) {
    const std::string value = in.string(in.require(root, key, key), key);
    if (value.empty()) in.fail(root[key], key, "empty");
    return value;
  };
  s.name = field("name");
  s.authors = field("authors");
  s.code = field("code");
  s.memplace = field("memplace");
  s.date = field("date");
  const YAML::Node agents = in.require(root, "agents", "agents");
  in.require_map(agents, "agents");
  for (const auto& item : agents) {
    const std::string row = in.key(item.first, "agents");
    s.agents[row] = in.string(item.second, "agents." + row);
    if (s.agents[row].empty()) in.fail(item.second, "agents." + row, "empty");
  }
  return s;
}

SubmissionCheck check_submission(const fs::path& folder) {
  if (!fs::is_directory(folder))
    throw InputError(folder.string() +
                     ": not a folder (a submission is a folder; docs/leaderboard.md)");
  SubmissionCheck check;
  check.folder = folder;
  check.config = load_suite_table_config(folder);
  const fs::path about = folder / "submission.yaml";
  check.submission = Submission::parse_yaml(YamlInput::read_file(about), about.string());
  for (const std::string& row : check.config.agents)
    if (!check.submission.agents.contains(row))
      throw InputError(about.string() + ": agents: '" + row +
                       "' (a row of the table) is not described");
  for (const auto& [row, text] : check.submission.agents)
    if (std::find(check.config.agents.begin(), check.config.agents.end(), row) ==
        check.config.agents.end())
      throw InputError(about.string() + ": agents." + row + ": not a row of the table");
  const std::string claimed_report = YamlInput::read_file(folder / "suite.csv");

  const TableConfig& config = check.config;
  std::map<std::string, std::unique_ptr<Instance>> instances;
  for (const std::string& instance : config.workloads) {
    Simulator sim = config.model_of(instance).build();
    const TimeFs compiler = sim.evaluate(compiler_mapping(sim)).latency_fs;
    instances[instance] = std::make_unique<Instance>(Instance{std::move(sim), compiler});
  }
  std::vector<CellResult> cells;
  for (const std::string& agent : config.agents)
    for (const std::string& instance : config.workloads)
      for (std::uint64_t seed = 0; seed < config.seeds; ++seed) {
        const fs::path run = folder / "runs" / cell_folder_name(agent, instance, seed);
        cells.push_back(
            rescore_run(run, agent, instance, seed, config, *instances.at(instance), check));
        ++check.runs;
      }
  const std::vector<TableRow> rows = summarize(config, cells, workload_references(config));
  const SuiteScores scores = score_runs(
      config, cells, rows, [](const CellResult& c) { return c.found_valid ? c.best_speedup : 0; });
  check.aggregate = aggregate(scores);
  if (suite_csv(check.aggregate) != claimed_report)
    check.discrepancies.push_back(
        {"suite.csv", "is not the report of the re-scored runs (memplace table writes it)"});
  return check;
}

void pack_submission(const fs::path& table, const fs::path& out, Submission submission) {
  const TableConfig config = load_suite_table_config(table);
  if (fs::exists(out)) throw InputError(out.string() + ": exists; give a new folder");
  if (submission.agents.empty())
    for (const std::string& row : config.agents)
      submission.agents[row] = config.is_external(row)
                                   ? config.external.at(row).description
                                   : agents::find_agent(config.agent_of(row)).summary;
  if (submission.date.empty()) submission.date = today();
  // Everything is written into a sibling folder first, renamed into place at the end: a stopped
  // pack leaves no half-made submission.
  const fs::path staging = out.string() + ".partial";
  try {
    fs::remove_all(staging);
    fs::create_directories(staging / "runs");
  } catch (const fs::filesystem_error& e) {
    throw InputError(out.string() + ": cannot write the submission (" + e.code().message() + ")");
  }
  for (const std::string& agent : config.agents)
    for (const std::string& instance : config.workloads)
      for (std::uint64_t seed = 0; seed < config.seeds; ++seed) {
        const std::string name = cell_folder_name(agent, instance, seed);
        const fs::path from = table / "runs" / name;
        if (!fs::exists(from / "result.yaml"))
          throw InputError(from.string() +
                           ": not finished (no result.yaml); complete the table "
                           "with `memplace table` first");
        fs::create_directories(staging / "runs" / name);
        for (const char* file : kRunFiles)
          if (fs::exists(from / file))
            write_file_atomically(staging / "runs" / name / file,
                                  YamlInput::read_file(from / file));
      }
  write_file_atomically(staging / "config.yaml", YamlInput::read_file(table / "config.yaml"));
  write_file_atomically(staging / "suite.csv", YamlInput::read_file(table / "suite.csv"));
  write_file_atomically(staging / "submission.yaml", submission.to_yaml());
  fs::rename(staging, out);
}

std::string leaderboard_markdown(const std::vector<SubmissionCheck>& checks) {
  // Entries are comparable within one suite, split, set of instances, budget and number of seeds.
  using Group =
      std::tuple<std::string, std::string, std::vector<std::string>, std::uint64_t, std::uint64_t>;
  std::map<Group, std::vector<std::pair<const SubmissionCheck*, const AgentAggregate*>>> groups;
  for (const SubmissionCheck& c : checks)
    for (const AgentAggregate& a : c.aggregate.agents)
      groups[{c.config.suite, std::string(split_name(c.config.split)), c.config.workloads,
              c.config.budget, c.config.seeds}]
          .push_back({&c, &a});
  std::ostringstream out;
  for (auto& [group, entries] : groups) {
    const auto& [suite, split, instances, budget, seeds] = group;
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.second->iqm > b.second->iqm; });
    out << "### Suite " << suite << ", " << split << " split, " << instances.size()
        << " instances: " << budget << " evaluations, " << seeds << " seeds\n\n";
    using Align = MarkdownTable::Align;
    MarkdownTable table({{"", Align::right},
                         {"agent"},
                         {"IQM of the share [95 % CI]", Align::right},
                         {"mean", Align::right},
                         {"runs", Align::right},
                         {"submission"},
                         {"what it is"}});
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const auto& [check, agg] = entries[k];
      table.add_row({std::to_string(k + 1),
                     agg->agent + (check->config.is_external(agg->agent) ? " (external)" : ""),
                     share_percent(agg->iqm) + " [" + share_percent(agg->iqm_interval.low) + ", " +
                         share_percent(agg->iqm_interval.high) + "]",
                     share_percent(agg->mean), std::to_string(agg->runs),
                     check->submission.name + " (" + check->submission.date + ", `" +
                         check->folder.filename().string() + "`)",
                     check->submission.agents.at(agg->agent)});
    }
    out << table.str() << "\nInstances:";
    for (const std::string& instance : instances)
      out << " " << instance;
    out << ".\n\n";
  }
  return out.str();
}

}  // namespace memplace::experiments
