#include "experiments/table/table_runner.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "agents/training/run_folder.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "base/yaml_input.hpp"
#include "experiments/table/remaining_time.hpp"
#include "model/inputs/workload.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;

constexpr const char* kResultFile = "result.yaml";

struct Cell {
  std::size_t index = 0;  // in table order
  std::string agent;
  std::string workload;
  std::uint64_t seed = 0;
};

std::string describe(const CellResult& r) {
  return r.agent + " on " + workload_label(r.workload) + ", seed " + std::to_string(r.seed) + ": " +
         (r.found_valid ? format_fixed(r.best_speedup, 4) + "x" : std::string("no valid mapping"));
}

// The config without `jobs`, which changes no result and may differ between reruns.
std::string comparable_yaml(TableConfig config) {
  config.jobs = 0;
  return config.to_yaml();
}

// The cores this process may run on (its affinity: under mpirun, those of its rank).
std::size_t usable_cores() {
  return static_cast<std::size_t>(std::max(1, omp_get_num_procs()));
}

// Every rank sends the results of the cells it finished (and whether it was stopped), so that
// every rank ends with the whole table, whatever the shared folder's caching.
void gather_results(ProcessGroup& ranks, const std::vector<Cell>& cells,
                    const std::vector<std::size_t>& run_here,
                    std::vector<std::optional<CellResult>>& results, TableOutcome& outcome) {
  std::string message(1, outcome.interrupted ? 's' : '-');
  for (std::size_t index : run_here) {
    const std::string yaml = result_yaml(*results[index]);
    message += std::to_string(index) + " " + std::to_string(yaml.size()) + "\n" + yaml;
  }
  outcome.cells_run = 0;
  for (const std::string& from : ranks.all_gather(message)) {
    outcome.interrupted = outcome.interrupted || from.at(0) == 's';
    std::istringstream in(from.substr(1));
    std::size_t index = 0, size = 0;
    while (in >> index >> size) {
      in.get();  // the newline
      std::string yaml(size, '\0');
      in.read(yaml.data(), static_cast<std::streamsize>(size));
      if (index >= cells.size() || !in) throw std::logic_error("a rank sent a garbled result");
      results[index] = parse_result_yaml(yaml, "a rank's result of cell " + std::to_string(index));
      ++outcome.cells_run;
    }
  }
}

// The first `<folder><tag><n>` (n = 1, 2, ...) that does not exist, beside `folder`.
fs::path free_sibling(const fs::path& folder, const std::string& tag) {
  fs::path base = folder.lexically_normal();
  if (!base.has_filename()) base = base.parent_path();  // "runs/table/"
  for (int n = 1;; ++n) {
    fs::path candidate = base;
    candidate += tag + std::to_string(n);
    if (!fs::exists(candidate)) return candidate;
  }
}

// Every cell of a table, in table order (agent, workload, seed).
std::vector<Cell> table_cells(const TableConfig& config) {
  std::vector<Cell> cells;
  for (const std::string& agent : config.agents)
    for (const std::string& workload : config.workloads)
      for (std::uint64_t seed = 0; seed < config.seeds; ++seed)
        cells.push_back({cells.size(), agent, workload, seed});
  return cells;
}

using CellKey = std::tuple<std::string, std::string, std::uint64_t>;

CellKey key_of(const Cell& cell) {
  return {cell.agent, cell.workload, cell.seed};
}

std::set<CellKey> keys_of(const std::vector<Cell>& cells) {
  std::set<CellKey> keys;
  for (const Cell& cell : cells)
    keys.insert(key_of(cell));
  return keys;
}

// Resolves the config and checks, before anything is written or run, what resolve() cannot:
// run folders that would collide, and that every run's agent and workload build.
void resolve_and_check(TableConfig& config) {
  config.resolve();
  std::set<std::string> stems;
  for (const std::string& w : config.workloads) {
    if (!stems.insert(workload_label(w)).second)
      throw InputError("table config: workloads: two workloads are named '" + workload_label(w) +
                       "' (their run folders would collide)");
  }
  for (const std::string& agent : config.agents)
    if (!config.is_external(agent))
      for (const std::string& workload : config.workloads)
        agents::check_runnable(config.cell(agent, workload, 0));
}

// The config a table folder was made with (its config.yaml), resolved.
TableConfig read_saved_config(const fs::path& saved) {
  const std::string text = YamlInput::read_file(saved);
  TableConfig earlier = TableConfig::parse_yaml(text, saved.string());
  // Written before v1 became the default, a config without env_version is a v0 table: its runs
  // must not be taken for v1 ones.
  if (!YamlInput(text, saved.string()).root()["env_version"])
    earlier.set_env_version(ModelVersion::v0);
  earlier.resolve();
  return earlier;
}

std::string refusal(const fs::path& out, const TableChange& change) {
  std::string fields;
  for (const std::string& field : change.meaning)
    fields += (fields.empty() ? "" : ", ") + field;
  return out.string() +
         ": holds a table with another config (config.yaml) whose finished runs would change "
         "meaning: " +
         fields +
         " (only agents, workloads, variants and seeds can be added to a table or dropped); "
         "choose another --out, rerun with that config, or add --if-config-differs move-aside "
         "to keep it beside a fresh table";
}

// A new cell's run folder may exist already: left by a cell that an earlier config dropped
// (reused if it ran this cell's config), or by another workload of the same label (refused,
// rather than taken for this cell's run).
void require_run_of(agents::TrainConfig cell, const fs::path& folder) {
  const agents::RunFolder run{folder};
  if (!run.has_run()) return;
  agents::TrainConfig held = agents::TrainConfig::load(run.config());
  held.resolve();
  cell.resolve();
  if (held.to_yaml() != cell.to_yaml())
    throw InputError(folder.string() +
                     ": holds a run of another config than this table's cell (left by an "
                     "earlier table); remove that folder, or choose another --out");
}

// What extending the table of `saved` to `next` (a change of cells only) keeps, runs and drops.
TableExtension extension_of(const TableConfig& saved, const TableConfig& next, TableChange change,
                            const fs::path& runs) {
  TableExtension extension;
  extension.change = std::move(change);
  const std::vector<Cell> before = table_cells(saved), after = table_cells(next);
  const std::set<CellKey> had = keys_of(before), has = keys_of(after);
  for (const Cell& cell : after) {
    const fs::path folder = runs / cell_folder_name(cell.agent, cell.workload, cell.seed);
    const bool new_cell = !had.contains(key_of(cell));
    if (new_cell && !next.is_external(cell.agent))
      require_run_of(next.cell(cell.agent, cell.workload, cell.seed), folder);
    if (fs::exists(folder / kResultFile))
      ++extension.finished_kept;
    else if (new_cell)
      ++extension.new_runs;
  }
  for (const Cell& cell : before)
    extension.dropped_cells += has.contains(key_of(cell)) ? 0 : 1;
  return extension;
}

std::string count_of(std::size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

std::string describe_extension(const TableExtension& extension) {
  std::string text = describe_cells_change(extension.change) + " (" +
                     count_of(extension.new_runs, "new run") + "; " +
                     count_of(extension.finished_kept, "finished run") + " kept";
  if (extension.dropped_cells > 0)
    text += "; " + count_of(extension.dropped_cells, "dropped run") +
            " left out of the report, their folders stay in runs/";
  return text + ")";
}

std::vector<int> share_out(std::span<const double> costs, int ranks) {
  std::vector<double> load(static_cast<std::size_t>(ranks), 0.0);
  std::vector<int> owners;
  for (double cost : costs) {
    const auto least = std::min_element(load.begin(), load.end());  // the first of equal ones
    *least += cost;
    owners.push_back(static_cast<int>(least - load.begin()));
  }
  return owners;
}

CellResult cell_result(const std::string& row, const std::string& workload, std::uint64_t seed,
                       const std::vector<agents::CurveRow>& curve) {
  CellResult r;
  r.agent = row;
  r.workload = workload;
  r.seed = seed;
  if (curve.empty()) return r;
  const agents::CurveRow& last = curve.back();
  r.evaluations = last.evaluations;
  r.best_speedup = last.best_speedup;
  r.found_valid = last.best_speedup > 0;
  r.wall_seconds = last.wall_seconds;
  if (r.found_valid) {
    for (const agents::CurveRow& row : curve) {
      if (row.best_speedup >= 0.95 * r.best_speedup) {
        r.evaluations_to_95 = row.evaluations;
        break;
      }
    }
  }
  return r;
}

std::string result_yaml(const CellResult& r) {
  std::ostringstream out;
  out << "# memplace table: the result of a finished run (its curve.csv has the details)\n"
      << "agent: " << yaml_quoted(r.agent) << "\n"
      << "workload: " << yaml_quoted(r.workload) << "\n"
      << "seed: " << r.seed << "\n"
      << "evaluations: " << r.evaluations << "\n"
      << "found_valid: " << (r.found_valid ? "true" : "false") << "\n";
  out << "best_speedup: " << format_significant(r.best_speedup, 17) << "\n"
      << "evaluations_to_95: " << r.evaluations_to_95 << "\n";
  out << "wall_seconds: " << format_fixed(r.wall_seconds, 3) << "\n";
  if (!r.agent_status.empty()) out << "agent_status: " << yaml_quoted(r.agent_status) << "\n";
  return out.str();
}

CellResult parse_result_yaml(std::string_view text, std::string_view origin) {
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  in.require_map(root, "result");
  in.reject_unknown_keys(root,
                         {"agent", "workload", "seed", "evaluations", "found_valid", "best_speedup",
                          "evaluations_to_95", "wall_seconds", "agent_status"},
                         "result");
  CellResult r;
  r.agent = in.string(in.require(root, "agent", "agent"), "agent");
  r.workload = in.string(in.require(root, "workload", "workload"), "workload");
  r.seed = static_cast<std::uint64_t>(in.count(in.require(root, "seed", "seed"), "seed"));
  r.evaluations = static_cast<std::uint64_t>(
      in.count(in.require(root, "evaluations", "evaluations"), "evaluations"));
  const std::string valid =
      in.string(in.require(root, "found_valid", "found_valid"), "found_valid");
  if (valid != "true" && valid != "false")
    in.fail(root["found_valid"], "found_valid", "expected true or false, got '" + valid + "'");
  r.found_valid = valid == "true";
  r.best_speedup =
      in.non_negative(in.require(root, "best_speedup", "best_speedup"), "best_speedup");
  r.evaluations_to_95 = static_cast<std::uint64_t>(
      in.count(in.require(root, "evaluations_to_95", "evaluations_to_95"), "evaluations_to_95"));
  r.wall_seconds =
      in.non_negative(in.require(root, "wall_seconds", "wall_seconds"), "wall_seconds");
  if (const YAML::Node n = in.optional(root, "agent_status", "agent_status"); n.IsDefined())
    r.agent_status = in.string(n, "agent_status");
  return r;
}

TableRunner::TableRunner(TableConfig config, fs::path out, ProcessGroup& ranks,
                         ConfigChange on_change)
    : config_(std::move(config)), out_(std::move(out)), ranks_(&ranks) {
  const fs::path saved = out_ / "config.yaml";
  bool move_aside = false;
  run_agreed(ranks, OnRanks::every, [&] {
    resolve_and_check(config_);
    if (!fs::exists(saved)) return;
    const TableConfig earlier = read_saved_config(saved);
    if (comparable_yaml(earlier) == comparable_yaml(config_)) return;
    TableChange change = compare_tables(earlier, config_);
    if (!change.changes_meaning()) {
      extension_ = extension_of(earlier, config_, std::move(change), out_ / "runs");
    } else if (on_change == ConfigChange::refuse) {
      throw InputError(refusal(out_, change));
    } else {
      move_aside = true;
    }
  });
  require_same_on_every_rank(
      ranks, comparable_yaml(config_) + "out: " + out_.string(),
      "was started with another table config or --out than rank 0; every rank of a job must be "
      "given the same command");
  run_agreed(ranks, OnRanks::leader_only, [&] {
    if (move_aside) {
      const fs::path aside = free_sibling(out_, ".previous-");
      std::error_code error;
      fs::rename(out_, aside, error);
      if (error)
        throw InputError(out_.string() + ": cannot move the earlier table aside to " +
                         aside.string() + " (" + error.message() + ")");
      moved_aside_to_ = aside;
    }
    try {
      fs::create_directories(out_ / "runs");
    } catch (const fs::filesystem_error& e) {
      throw InputError(out_.string() + ": cannot create the table folder (" + e.code().message() +
                       ")");
    }
    write_file_atomically(saved, config_.to_yaml());
  });
  // Each rank writes its runs there: a folder some rank cannot write (or does not see: not
  // shared) stops every rank now rather than one midway.
  if (ranks.size() > 1) {
    run_agreed(ranks, OnRanks::every, [&] {
      const fs::path probe = out_ / "runs" / (".written-by-rank-" + std::to_string(ranks.rank()));
      try {
        write_file_atomically(probe, "");
        fs::remove(probe);
      } catch (const std::exception& e) {
        throw InputError(out_.string() +
                         ": this rank cannot write into the table folder, which must be one folder "
                         "shared by every rank (docs/scale-out.md): " +
                         e.what());
      }
    });
  }
}

std::string cell_folder_name(const std::string& agent, const std::string& workload,
                             std::uint64_t seed) {
  return agent + "-" + workload_label(workload) + "-s" + std::to_string(seed);
}

fs::path TableRunner::cell_folder(const std::string& agent, const std::string& workload,
                                  std::uint64_t seed) const {
  return out_ / "runs" / cell_folder_name(agent, workload, seed);
}

TableOutcome TableRunner::run(const std::function<void(const TableProgress&)>& progress,
                              const std::function<bool()>& stop) {
  ProcessGroup& ranks = *ranks_;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Cell> cells = table_cells(config_);
  auto result_file = [&](const Cell& cell) {
    return cell_folder(cell.agent, cell.workload, cell.seed) / kResultFile;
  };

  std::vector<std::optional<CellResult>> results(cells.size());
  std::vector<Cell> pending;
  std::size_t external_missing = 0;
  std::string finished;  // the finished cells' indices, for the ranks to compare
  run_agreed(ranks, OnRanks::every, [&] {
    for (const Cell& cell : cells) {
      const fs::path result = result_file(cell);
      if (fs::exists(result)) {
        results[cell.index] = parse_result_yaml(YamlInput::read_file(result), result.string());
        finished += std::to_string(cell.index) + " ";
      } else if (config_.is_external(cell.agent)) {
        ++external_missing;  // its own code makes it (experiments/table/external_run.hpp)
      } else {
        pending.push_back(cell);
      }
    }
  });
  require_same_on_every_rank(
      ranks, finished,
      "sees other finished runs in " + out_.string() +
          " than rank 0: the table folder must be one folder shared by every rank "
          "(docs/scale-out.md)");
  // The longest first, so that the last cells to finish are short ones.
  std::map<std::string, std::size_t> tensors;
  for (const std::string& w : config_.workloads)
    tensors[w] = 2 * load_workload(config_.model_of(w).workload).size();
  auto cost = [&](const Cell& cell) {
    return expected_run_seconds(config_.agent_of(cell.agent), tensors.at(cell.workload),
                                config_.budget);
  };
  std::stable_sort(pending.begin(), pending.end(),
                   [&](const Cell& a, const Cell& b) { return cost(a) > cost(b); });
  std::vector<double> costs;
  for (const Cell& cell : pending)
    costs.push_back(cost(cell));
  const std::vector<int> owners = share_out(costs, ranks.size());
  std::vector<Cell> mine;
  for (std::size_t k = 0; k < pending.size(); ++k)
    if (owners[k] == ranks.rank()) mine.push_back(pending[k]);

  const std::size_t jobs = std::min<std::size_t>(
      config_.jobs > 0 ? static_cast<std::size_t>(config_.jobs) : usable_cores(), mine.size());
  std::vector<RemainingTime::Run> expected;
  for (const Cell& cell : mine)
    expected.push_back({config_.agent_of(cell.agent), cost(cell)});
  RemainingTime remaining(std::move(expected), jobs);
  auto seconds_since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::mutex mutex;  // guards results, progress, failure and the counters
  TableProgress state;
  state.cells_total = cells.size();
  state.cells_done = cells.size() - pending.size() - external_missing;
  state.ranks = ranks.size();
  state.share_total = mine.size();
  std::vector<std::size_t> run_here;  // the cells this rank finished, in finishing order
  std::exception_ptr failure;
  std::atomic<bool> abort{false};
  std::atomic<std::size_t> next{0};
  std::atomic<bool> interrupted{false};
  auto should_stop = [&] { return abort.load() || (stop && stop()); };
  // With several ranks, the finished runs of them all (rank 0 counts result.yaml files).
  auto count_finished = [&] {
    std::size_t done = cells.size() - pending.size() - external_missing;
    for (const Cell& cell : pending)
      done += fs::exists(result_file(cell)) ? 1 : 0;
    return done;
  };

  auto run_cell = [&](std::size_t k) {
    const Cell& cell = mine[k];
    const fs::path folder = cell_folder(cell.agent, cell.workload, cell.seed);
    std::optional<agents::Trainer> trainer;
    trainer.emplace(agents::Trainer::resume_or_start(
        config_.cell(cell.agent, cell.workload, cell.seed), folder));
    const agents::TrainResult result = trainer->run({}, should_stop);
    if (result.interrupted) {
      interrupted.store(true);
      return;
    }
    // The table's entry for the workload: a suite instance names its hardware too.
    CellResult r = cell_result(cell.agent, cell.workload, cell.seed, trainer->curve());
    r.agent_status = trainer->agent().status();
    write_file_atomically(folder / kResultFile, result_yaml(r));
    const std::lock_guard lock(mutex);
    results[cell.index] = r;
    run_here.push_back(cell.index);
    ++state.share_done;
    state.cells_done = ranks.size() == 1 ? state.cells_done + 1 : count_finished();
    state.last_finished = describe(r);
    state.wall_seconds = seconds_since_start();
    remaining.finished(k, state.wall_seconds);
    state.seconds_left = remaining.seconds_left(state.wall_seconds);
    if (progress && ranks.leader()) progress(state);
  };
  auto worker = [&] {
    for (;;) {
      if (should_stop()) {
        if (!abort.load()) interrupted.store(true);
        return;
      }
      const std::size_t k = next.fetch_add(1);
      if (k >= mine.size()) return;
      {
        const std::lock_guard lock(mutex);
        ++state.cells_running;
        remaining.started(k, seconds_since_start());
      }
      try {
        run_cell(k);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        abort.store(true);
      }
      const std::lock_guard lock(mutex);
      --state.cells_running;
    }
  };

  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < jobs; ++j)
    threads.emplace_back(worker);
  if (jobs > 0) worker();
  for (std::thread& t : threads)
    t.join();
  // A failure on one rank stops them all here (the others have finished their share).
  run_agreed(ranks, OnRanks::every, [&] {
    if (failure) std::rethrow_exception(failure);
  });

  TableOutcome outcome;
  outcome.cells_run = run_here.size();
  outcome.external_missing = external_missing;
  outcome.interrupted = interrupted.load();
  if (ranks.size() > 1) gather_results(ranks, cells, run_here, results, outcome);
  for (std::optional<CellResult>& r : results)
    if (r) outcome.cells.push_back(std::move(*r));
  outcome.interrupted = outcome.interrupted && outcome.cells.size() < cells.size();
  return outcome;
}

TableOutcome TableRunner::finished() const {
  TableOutcome outcome;
  for (const Cell& cell : table_cells(config_)) {
    const fs::path result = cell_folder(cell.agent, cell.workload, cell.seed) / kResultFile;
    if (fs::exists(result))
      outcome.cells.push_back(parse_result_yaml(YamlInput::read_file(result), result.string()));
    else if (config_.is_external(cell.agent))
      ++outcome.external_missing;
  }
  return outcome;
}

}  // namespace memplace::experiments
