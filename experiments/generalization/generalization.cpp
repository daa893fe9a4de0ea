#include "experiments/generalization/generalization.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "agents/nn/gnn_file.hpp"
#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "base/text.hpp"
#include "base/yaml_input.hpp"
#include "experiments/charts/table_plots.hpp"
#include "experiments/generalization/reward_prediction.hpp"
#include "experiments/generalization/transfer.hpp"
#include "experiments/table/table_references.hpp"
#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError("generalization: " + message);
}

// The suite's instances of one split on one chip, in the suite's order.
std::vector<SuiteInstance> instances_on(const Suite& suite, Split split, const std::string& chip) {
  std::vector<SuiteInstance> out;
  for (const SuiteInstance& i : suite.instances)
    if (suite.split(i) == split && i.hardware == chip) out.push_back(i);
  return out;
}

// One run to make: its config and folder, and what to do with its trained agent before it is
// marked finished (a segment saves its policy).
struct RunTask {
  agents::TrainConfig config;
  fs::path folder;
  bool save_policy = false;
};

// Runs, resumes or reads back one run. nullopt when stopped.
std::optional<CellResult> complete_run(const RunTask& task, const std::function<bool()>& stop) {
  const fs::path result = task.folder / "result.yaml";
  if (fs::exists(result)) return parse_result_yaml(YamlInput::read_file(result), result.string());
  agents::Trainer trainer = agents::Trainer::resume_or_start(task.config, task.folder);
  if (trainer.run({}, stop).interrupted) return std::nullopt;
  CellResult r =
      cell_result(task.config.agent, task.config.model.workload, task.config.seed, trainer.curve());
  r.agent_status = trainer.agent().status();
  if (task.save_policy)
    agents::save_gnn(task.folder / "policy.gnn", *trainer.agent().policy(),
                     agents::policy_spec(task.config));
  write_file_atomically(result, result_yaml(r));
  return r;
}

// The node features of a given policy file, after checking that its spec names the agent, the
// chip and the env version it is given for.
agents::NodeFeatures given_policy_features(const fs::path& file, const std::string& agent,
                                           const std::string& chip, ModelVersion env_version) {
  require(fs::exists(file), "policies: no " + file.string() + " (the policy of " + agent + " on " +
                                chip + ": <agent>-<chip>.gnn)");
  const agents::PolicyFile policy = agents::load_policy(file);
  require(policy.spec.has_value(),
          "policies: " + file.string() + " has no policy spec (agent, chip, env version)");
  const agents::PolicySpec& spec = *policy.spec;
  const std::string hardware = load_hardware(chip).name;
  require(spec.agent == agent && spec.hardware == hardware && spec.env_version == env_version,
          "policies: " + file.string() + " is a policy for " + spec.to_string() +
              ", not for agent=" + agent +
              " env_version=" + std::string(version_name(env_version)) + " hardware=" + hardware);
  try {
    return agents::parse_node_features(spec.features);
  } catch (const InputError& e) {
    throw InputError("generalization: policies: " + file.string() + ": " + e.what());
  }
}

// Trains (or reads back) a chip's reward predictor; returns its held-out R².
double complete_reward_predictor(const GeneralizationConfig& config, const std::string& chip,
                                 const std::vector<std::string>& workloads, const fs::path& file,
                                 agents::NodeFeatures features) {
  const fs::path record = file.parent_path() / "prediction.yaml";
  if (fs::exists(record)) {
    const YamlInput in(YamlInput::read_file(record), record.string());
    return std::stod(in.string(in.require(in.root(), "held_out_r2", "held_out_r2"), "held_out_r2"));
  }
  RewardPredictionConfig c;
  for (const std::string& w : workloads) {
    agents::ScoringEnv graph = config;
    graph.model.workload = w;
    graph.model.hardware = chip;
    c.graphs.push_back(graph);
  }
  c.steps = config.pretrain_steps;
  c.features = features;
  const RewardPrediction p = pretrain_reward_predictor(c);
  fs::create_directories(file.parent_path());
  agents::save_gnn(file, p.network);
  write_file_atomically(record, "# memplace generalize: the reward predictor of " + chip + "\n" +
                                    "first_loss: " + format_significant(p.first_loss, 9) + "\n" +
                                    "last_loss: " + format_significant(p.last_loss, 9) + "\n" +
                                    "held_out_r2: " + format_significant(p.held_out_r2, 9) + "\n");
  return p.held_out_r2;
}

// Calls work(i) for i in [0, count) on `jobs` threads; the first failure is rethrown once every
// thread has stopped.
void for_each_parallel(std::size_t count, std::size_t jobs,
                       const std::function<void(std::size_t)>& work) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < count && !failed; i = next++) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < std::min(jobs, count); ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads)
    t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

void GeneralizationConfig::resolve() {
  require(!agents.empty(), "agents: empty");
  for (const std::string& agent : agents) {
    const agents::AgentInfo* info = nullptr;
    try {
      info = &agents::find_agent(agent);
    } catch (const InputError& e) {
      require(false, std::string("agents: ") + e.what());
    }
    require(info->starts_from_policy, "agents: '" + agent +
                                          "' has no GNN policy to train and fine-tune (" +
                                          join(agents::policy_agents(), ", ") + " do)");
  }
  require(train_budget >= 1 && k >= 1, "train_budget and k: must be at least 1");
  require(rounds >= 1 && rounds <= 100, "rounds: must be in 1..100");
  require(seeds >= 1 && seeds <= 1000, "seeds: must be in 1..1000");
  require(agents::valid_init_temperature(init_temperature),
          "init_temperature: must be in [0.001, 1000]");
  require(jobs >= 0 && jobs <= 1024, "jobs: must be in 0..1024 (0: one per core)");
  Suite s;
  try {
    s = load_suite(suite);
  } catch (const InputError& e) {
    require(false, std::string("suite: ") + e.what());
  }
  std::vector<std::string> both;
  for (const SuiteInstance& i : s.instances)
    if (!instances_on(s, Split::dev, i.hardware).empty() &&
        !instances_on(s, Split::test, i.hardware).empty() &&
        std::find(both.begin(), both.end(), i.hardware) == both.end())
      both.push_back(i.hardware);
  if (chips.empty()) chips = both;
  for (const std::string& chip : chips)
    require(std::find(both.begin(), both.end(), chip) != both.end(),
            "chips: suite " + s.name + " has no dev and test instances on '" + chip + "'");
  for (const std::string& p : procedural)
    require(p.rfind("procedural-", 0) == 0,
            "procedural: '" + p + "' is not a procedural workload (procedural-<kind>-s<seed>)");
  require(policies.empty() || fs::is_directory(policies),
          "policies: '" + policies + "' is not a folder");
}

std::string GeneralizationConfig::to_yaml() const {
  std::ostringstream out;
  out << "# memplace generalize config (docs/table.md#the-generalization-track)\n"
      << "suite: " << yaml_quoted(suite) << "\n"
      << "agents: " << yaml_quoted_list(agents) << "\n"
      << "chips: " << yaml_quoted_list(chips) << "\n"
      << "procedural: " << yaml_quoted_list(procedural) << "\n"
      << "train_budget: " << train_budget << "\n"
      << "rounds: " << rounds << "\n"
      << "k: " << k << "\n"
      << "seeds: " << seeds << "\n";
  // Written when set, so that earlier folders compare equal.
  if (init_temperature != 1)
    out << "init_temperature: " << format_significant(init_temperature, 17) << "\n";
  out << env_version_yaml();
  // Written when they differ from the defaults, so that earlier folders compare equal.
  if (env_options() != GeneralizationConfig().env_options()) out << env_options_yaml();
  if (pretrain) out << "pretrain: true\npretrain_steps: " << pretrain_steps << "\n";
  if (!policies.empty()) out << "policies: " << yaml_quoted(policies) << "\n";
  return out.str();
}

std::string GeneralizationConfig::comparable_yaml() const {
  GeneralizationConfig without = *this;
  without.pretrain = false;
  return without.to_yaml();
}

GeneralizationReport run_generalization(
    GeneralizationConfig config, const fs::path& out,
    const std::function<void(const GeneralizationProgress&)>& progress,
    const std::function<bool()>& stop) {
  config.resolve();
  const Suite suite = load_suite(config.suite);
  const fs::path saved = out / "config.yaml";
  // A folder made without pretrain is extended by a rerun with it.
  const std::string earlier = fs::exists(saved) ? YamlInput::read_file(saved) : "";
  if (!earlier.empty() && earlier != config.to_yaml() && earlier != config.comparable_yaml())
    throw InputError(out.string() +
                     ": holds a generalization track with another config (config.yaml); choose "
                     "another --out, or rerun with that config");

  auto train_config = [&](const std::string& agent, const std::string& workload,
                          const std::string& chip, std::uint64_t budget, std::uint64_t seed,
                          const fs::path& init_policy, agents::NodeFeatures features,
                          double init_temperature = 1) {
    agents::TrainConfig c;
    static_cast<agents::ScoringEnv&>(c) = config;
    c.agent = agent;
    c.model.workload = workload;
    c.model.hardware = chip;
    c.budget = budget;
    c.seed = seed;
    c.threads = 1;
    c.checkpoint_every = std::max<std::uint64_t>(1, budget / 10);
    c.init_policy = init_policy.string();
    c.init_temperature = init_temperature;
    c.features = features;
    c.resolve();
    return c;
  };
  const std::size_t jobs = config.jobs > 0 ? static_cast<std::size_t>(config.jobs)
                                           : static_cast<std::size_t>(omp_get_num_procs());
  const auto start = std::chrono::steady_clock::now();
  GeneralizationProgress state;
  std::mutex mutex;
  std::atomic<bool> interrupted{false};
  auto finished = [&](const std::string& what) {
    const std::lock_guard lock(mutex);
    ++state.done;
    state.last_finished = what;
    state.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(state);
  };

  // What a chip's policies and its reward predictor learn on: its dev instances, then the
  // procedural workloads.
  auto training_workloads = [&](const std::string& chip) {
    std::vector<std::string> workloads;
    for (const SuiteInstance& i : instances_on(suite, Split::dev, chip))
      workloads.push_back(i.workload);
    workloads.insert(workloads.end(), config.procedural.begin(), config.procedural.end());
    return workloads;
  };
  auto predictor_file = [&](const std::string& chip) {
    return out / "chains" / ("reward-predictor-" + chip) / "network.gnn";
  };

  // Phase 1: one chain of segments per (agent, chip), the chains side by side, and with
  // `pretrain` a reward predictor per chip.
  // With `policies`, a chain has no segments: its policy is given.
  struct Chain {
    std::string agent, chip;
    std::vector<RunTask> segments;
    fs::path given;
    agents::NodeFeatures features = agents::NodeFeatures::observation;
    fs::path policy() const {
      return segments.empty() ? given : segments.back().folder / "policy.gnn";
    }
  };
  std::vector<Chain> chains;
  std::map<std::string, agents::NodeFeatures> chip_features;  // what its reward predictor reads
  for (const std::string& agent : config.agents)
    for (const std::string& chip : config.chips) {
      Chain chain{agent, chip, {}, {}, agents::NodeFeatures::observation};
      if (!config.policies.empty()) {
        chain.given = fs::path(config.policies) / (agent + "-" + chip + ".gnn");
        chain.features = given_policy_features(chain.given, agent, chip, config.env_version);
        const auto [at, fresh] = chip_features.emplace(chip, chain.features);
        require(fresh || !config.pretrain || at->second == chain.features,
                "policies: the policies of " + chip +
                    " read different node features, so no one reward predictor starts them all");
        chains.push_back(std::move(chain));
        continue;
      }
      const fs::path folder = out / "chains" / (agent + "-" + chip);
      for (std::uint64_t round = 0; round < config.rounds; ++round)
        for (const std::string& w : training_workloads(chip)) {
          const std::size_t index = chain.segments.size();
          const fs::path init =
              index == 0 ? fs::path() : chain.segments.back().folder / "policy.gnn";
          chain.segments.push_back(
              {train_config(agent, w, chip, config.train_budget, index, init, chain.features),
               folder / (std::to_string(index) + "-" + w), true});
        }
      chains.push_back(std::move(chain));
    }
  // Phase 2: the k-evaluation runs on every test instance of the chain's chip.
  enum class Mode { fine, scratch, pretrained };
  const auto mode_name = [](Mode m) {
    return m == Mode::fine ? "fine" : m == Mode::scratch ? "scratch" : "pretrained";
  };
  std::vector<Mode> modes = {Mode::fine, Mode::scratch};
  if (config.pretrain) modes.push_back(Mode::pretrained);
  std::vector<RunTask> runs;
  std::map<std::tuple<std::string, std::string, std::uint64_t, Mode>, std::size_t> run_index;
  for (const Chain& chain : chains)
    for (const SuiteInstance& i : instances_on(suite, Split::test, chain.chip))
      for (std::uint64_t seed = 0; seed < config.seeds; ++seed)
        for (const Mode mode : modes) {
          const fs::path init = mode == Mode::fine         ? chain.policy()
                                : mode == Mode::pretrained ? predictor_file(chain.chip)
                                                           : fs::path();
          run_index[{chain.agent, i.id(), seed, mode}] = runs.size();
          runs.push_back(
              {train_config(chain.agent, i.workload, chain.chip, config.k, seed, init,
                            chain.features, mode == Mode::fine ? config.init_temperature : 1.0),
               out / "runs" / cell_folder_name(chain.agent + "-" + mode_name(mode), i.id(), seed),
               false});
        }
  // Every input checked (the given policies too): the folder is made.
  try {
    fs::create_directories(out);
  } catch (const fs::filesystem_error& e) {
    throw InputError(out.string() + ": cannot create the folder (" + e.code().message() + ")");
  }
  write_file_atomically(saved, config.to_yaml());
  for (const Chain& c : chains)
    state.total += c.segments.size();
  state.total += runs.size() + (config.pretrain ? config.chips.size() : 0);

  auto should_stop = [&] { return interrupted.load() || (stop && stop()); };
  auto run_one = [&](const RunTask& task) {
    if (!complete_run(task, should_stop)) {
      interrupted = true;
      return false;
    }
    finished(task.config.agent + " on " + task.config.model.workload + " (" +
             task.config.model.hardware + ")" +
             (task.config.init_policy.empty() ? "" : ", from " + task.config.init_policy));
    return true;
  };
  GeneralizationReport report;
  const std::size_t predictors = config.pretrain ? config.chips.size() : 0;
  std::vector<double> r2(predictors, 0.0);
  for_each_parallel(chains.size() + predictors, jobs, [&](std::size_t c) {
    if (c < chains.size()) {
      for (const RunTask& segment : chains[c].segments)
        if (!run_one(segment)) return;
      return;
    }
    const std::string& chip = config.chips[c - chains.size()];
    const auto features = chip_features.find(chip);
    r2[c - chains.size()] = complete_reward_predictor(
        config, chip, training_workloads(chip), predictor_file(chip),
        features == chip_features.end() ? agents::NodeFeatures::observation : features->second);
    finished("the reward predictor of " + chip);
  });
  for (std::size_t p = 0; p < predictors; ++p)
    report.predictor_r2.emplace_back(config.chips[p], r2[p]);
  if (interrupted) {
    report.interrupted = true;
    return report;
  }
  std::vector<std::optional<CellResult>> results(runs.size());
  for_each_parallel(runs.size(), jobs, [&](std::size_t r) {
    if (should_stop()) {
      interrupted = true;
      return;
    }
    if (run_one(runs[r])) {
      const fs::path result = runs[r].folder / "result.yaml";
      results[r] = parse_result_yaml(YamlInput::read_file(result), result.string());
    }
  });
  if (interrupted) {
    report.interrupted = true;
    return report;
  }

  // Phase 3: zero-shot placements, on the chain's chip and across chips, and the report rows.
  std::map<std::string, double> best_known, all_fast;  // per instance id
  for (const std::string& chip : config.chips)
    for (const SuiteInstance& i : instances_on(suite, Split::test, chip)) {
      ModelSpec model = config.model;
      model.workload = i.workload;
      model.hardware = i.hardware;
      const WorkloadReference reference = workload_reference(model);
      best_known[i.id()] = reference.best_known_speedup;
      all_fast[i.id()] = reference.all_fast_rectified_speedup;
    }
  auto zero_shot = [&](const Chain& chain, const nn::Gnn<float>& policy, const SuiteInstance& i) {
    ZeroShotTarget target = config;
    target.model.workload = i.workload;
    target.model.hardware = i.hardware;
    return evaluate_zero_shot(policy, target, chain.features);
  };
  auto speedup_of = [&](const Chain& chain, const SuiteInstance& i, std::uint64_t seed, Mode m) {
    const CellResult& r = *results[run_index.at({chain.agent, i.id(), seed, m})];
    return r.found_valid ? r.best_speedup : 0.0;
  };
  for (const Chain& chain : chains) {
    // The policy's zero-shot placement of every test instance, on every chip (its own included):
    // a speedup for now, the share needs every row's best known (below).
    const nn::Gnn<float> policy = agents::load_gnn(chain.policy());
    std::map<std::string, ZeroShotResult> placed;
    for (const std::string& chip : config.chips) {
      CrossHardwareCell cell{chain.agent, chain.chip, chip, {}};
      for (const SuiteInstance& i : instances_on(suite, Split::test, chip)) {
        const ZeroShotResult& z = placed.emplace(i.id(), zero_shot(chain, policy, i)).first->second;
        cell.shares.push_back(z.valid ? z.speedup : z.rectified_speedup);
      }
      report.cross_hardware.push_back(cell);
    }
    for (const SuiteInstance& i : instances_on(suite, Split::test, chain.chip)) {
      GeneralizationRow row;
      row.agent = chain.agent;
      row.chip = chain.chip;
      row.instance = i.id();
      row.all_fast_rectified = all_fast.at(i.id());
      const ZeroShotResult& z = placed.at(i.id());
      row.zero_shot_valid = z.valid;
      row.zero_shot_speedup = z.valid ? z.speedup : z.rectified_speedup;
      double best = std::max(best_known[i.id()], row.zero_shot_speedup);
      for (std::uint64_t seed = 0; seed < config.seeds; ++seed) {
        row.fine_tuned.push_back(speedup_of(chain, i, seed, Mode::fine));
        row.scratch.push_back(speedup_of(chain, i, seed, Mode::scratch));
        if (config.pretrain) row.pretrained.push_back(speedup_of(chain, i, seed, Mode::pretrained));
        std::optional<std::uint64_t> reached;
        const RunTask& fine = runs[run_index.at({chain.agent, i.id(), seed, Mode::fine})];
        for (const agents::CurveRow& c : read_curve_csv(fine.folder / "curve.csv"))
          if (c.best_speedup > 0 && c.best_speedup >= row.scratch.back()) {
            reached = c.evaluations;
            break;
          }
        row.evaluations_to_scratch.push_back(reached);
      }
      for (const std::vector<double>* runs_of : {&row.fine_tuned, &row.scratch, &row.pretrained})
        for (const double s : *runs_of)
          best = std::max(best, s);
      best_known[i.id()] = best;
      report.rows.push_back(row);
    }
  }
  // Every row against the best of everything here and the shipped mapping.
  for (GeneralizationRow& row : report.rows)
    row.best_known = best_known.at(row.instance);
  for (CrossHardwareCell& cell : report.cross_hardware) {
    const std::vector<SuiteInstance> targets = instances_on(suite, Split::test, cell.placed_on);
    for (std::size_t t = 0; t < targets.size(); ++t)
      cell.shares[t] = share_of_gain(cell.shares[t], best_known.at(targets[t].id()));
  }
  return report;
}

}  // namespace memplace::experiments
