#include "agents/training/trainer.hpp"

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "agents/nn/gnn_file.hpp"
#include "agents/nn/start_from.hpp"
#include "agents/node_features.hpp"
#include "agents/registry.hpp"
#include "agents/training/run_folder.hpp"
#include "agents/training/run_record.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/version.hpp"
#include "env/single_step_env.hpp"
#include "model/mapping_io.hpp"

namespace memplace::agents {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxBatch = 4096;  // proposals scored per call, at most
// Below this many proposals the batch is scored on one thread: waking a second one costs more
// than a few microseconds of evaluations (and much more on a busy machine).
constexpr std::size_t kParallelMin = 32;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int thread_count(int configured) {
  return configured > 0 ? configured : std::max(1, omp_get_num_procs());
}

// A rank's outcomes of a batch (and whether it was asked to stop), for the other ranks, as a state
// archive (base/state_archive.hpp: named records, checked).
std::string outcomes_message(std::span<const Outcome> outcomes, bool stop) {
  std::vector<double> rewards, speedups;
  std::vector<std::uint8_t> flags, scored;  // flags: valid, rectified
  std::vector<std::uint64_t> latencies;
  for (const Outcome& o : outcomes) {
    rewards.push_back(o.reward);
    speedups.push_back(o.speedup);
    flags.insert(flags.end(), {o.valid, o.rectified});
    latencies.push_back(static_cast<std::uint64_t>(o.latency_fs));
    scored.insert(scored.end(), o.scored.begin(), o.scored.end());
  }
  StateWriter out;
  out.put("stop", std::uint64_t{stop});
  out.put_array<double>("rewards", rewards);
  out.put_array<double>("speedups", speedups);
  out.put_array<std::uint8_t>("flags", flags);
  out.put_array<std::uint64_t>("latencies", latencies);
  out.put_array<std::uint8_t>("scored", scored);
  return out.finish();
}

// Fills `outcomes` (each scored mapping `tensors` long) from a rank's message; returns its stop.
bool read_outcomes_message(std::string message, int rank, std::size_t tensors,
                           std::span<Outcome> outcomes) {
  StateReader in(std::move(message), "rank " + std::to_string(rank) + "'s outcomes");
  const bool stop = in.get_u64("stop") != 0;
  const std::size_t n = outcomes.size();
  std::vector<double> rewards(n), speedups(n);
  std::vector<std::uint8_t> flags(2 * n), scored(n * tensors);
  std::vector<std::uint64_t> latencies(n);
  in.get_array_into<double>("rewards", rewards);
  in.get_array_into<double>("speedups", speedups);
  in.get_array_into<std::uint8_t>("flags", flags);
  in.get_array_into<std::uint64_t>("latencies", latencies);
  in.get_array_into<std::uint8_t>("scored", scored);
  in.expect_end();
  for (std::size_t i = 0; i < n; ++i) {
    Outcome& o = outcomes[i];
    o.reward = rewards[i];
    o.speedup = speedups[i];
    o.valid = flags[2 * i] != 0;
    o.rectified = flags[2 * i + 1] != 0;
    o.latency_fs = static_cast<TimeFs>(latencies[i]);
    const auto first = scored.begin() + static_cast<std::ptrdiff_t>(i * tensors);
    o.scored.assign(first, first + static_cast<std::ptrdiff_t>(tensors));
  }
  return stop;
}

// Who wrote a checkpoint this build cannot read, from the version it records ("" if none).
std::string checkpoint_origin(const std::string& version) {
  if (version.empty())
    return "written by a memplace before 0.2.0, which did not record its version";
  if (version != memplace_version()) return "written by memplace " + version;
  return "written by this version, then damaged";
}

}  // namespace

struct Trainer::State {
  ProcessGroup* ranks = &single_process();
  TrainConfig config;
  RunFolder folder;
  std::vector<std::unique_ptr<SingleStepEnv>> envs;  // one per thread, sharing one context
  std::unique_ptr<Agent> agent;
  RunRecord record;                // the curve and the best mapping (evaluations counted there)
  double wall_before = 0;          // seconds spent before this process resumed the run
  std::string checkpoint_version;  // the memplace that wrote the checkpoint resumed from
  std::uint64_t last_checkpoint = 0;

  const Simulator& sim() const { return envs.front()->simulator(); }

  void build() {
    record.budget = config.budget;
    const int threads = thread_count(config.threads);
    envs.clear();
    envs.push_back(SingleStepEnv::make(config.model, config.env_version, config.scoring));
    for (int t = 1; t < threads; ++t)
      envs.push_back(std::make_unique<SingleStepEnv>(*envs.front()));
    AgentSetup setup;
    setup.context = envs.front()->context();
    setup.observation =
        with_node_features(envs.front()->reset(config.seed).obs.copy(), sim(), config.features);
    setup.seed = config.seed;
    setup.budget = config.budget;
    setup.threads = threads;
    setup.ranks = ranks;
    setup.hyperparameters = config.hyperparameters;
    setup.env = config.env;
    if (!config.init_policy.empty()) {
      nn::Gnn<float> policy = load_gnn(config.init_policy);
      if (config.init_temperature != 1) nn::temper_policy(policy, config.init_temperature);
      setup.initial_policy = std::make_shared<const nn::Gnn<float>>(std::move(policy));
    }
    agent = make_agent(config.agent, setup);
  }

  // Scores this rank's share of the proposals in parallel over its threads, then gathers every
  // rank's outcomes in the proposals' order; each evaluation depends only on its mapping, so the
  // outcomes depend neither on the threads nor on the ranks. `stop`: this rank's stop request
  // going in, whether any rank asked coming out.
  std::vector<Outcome> evaluate(const std::vector<Mapping>& proposals, bool& stop) {
    std::vector<Outcome> outcomes(proposals.size());
    const Share mine = share_of(proposals.size(), ranks->rank(), ranks->size());
    score(proposals, mine, outcomes);
    if (ranks->size() == 1) return outcomes;
    const std::span<Outcome> all_outcomes(outcomes);
    std::vector<std::string> all = ranks->all_gather(
        outcomes_message(all_outcomes.subspan(mine.begin, mine.end - mine.begin), stop));
    stop = false;
    for (int r = 0; r < ranks->size(); ++r) {
      const Share theirs = share_of(proposals.size(), r, ranks->size());
      const bool asked =
          read_outcomes_message(std::move(all[static_cast<std::size_t>(r)]), r, sim().num_tensors(),
                                all_outcomes.subspan(theirs.begin, theirs.end - theirs.begin));
      stop = stop || asked;
    }
    return outcomes;
  }

  void score(const std::vector<Mapping>& proposals, Share share, std::vector<Outcome>& outcomes) {
    const auto begin = static_cast<std::int64_t>(share.begin);
    const auto end = static_cast<std::int64_t>(share.end);
    const int threads = share.end - share.begin >= kParallelMin ? static_cast<int>(envs.size()) : 1;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = begin; i < end; ++i) {
      SingleStepEnv& env = *envs[static_cast<std::size_t>(omp_get_thread_num())];
      outcomes[static_cast<std::size_t>(i)] =
          score_proposal(env, proposals[static_cast<std::size_t>(i)]);
    }
  }

  void record_all(const std::vector<Outcome>& outcomes, double wall) {
    for (const Outcome& o : outcomes)
      record.record(o, wall);
  }

  void write_outputs(double wall) const {
    record.write(folder, sim());
    StateWriter out;
    out.put("memplace.version", memplace_version());
    out.put("trainer.config", config.to_yaml());
    out.put("trainer.evaluations", record.evaluations);
    out.put("trainer.wall_seconds", wall);
    out.put("trainer.pending", record.pending);
    out.put("trainer.pending_valid", record.pending_valid);
    out.put("trainer.pending_speedup", record.pending_speedup);
    std::vector<double> rows;
    for (const CurveRow& r : record.curve) {
      rows.insert(rows.end(), {static_cast<double>(r.evaluations), r.wall_seconds, r.best_speedup,
                               r.batch_mean_speedup, r.valid_fraction});
    }
    out.put_array<double>("trainer.curve", rows);
    out.put("trainer.has_best", static_cast<std::uint64_t>(record.best ? 1 : 0));
    out.put_array<std::uint8_t>("trainer.best", record.best
                                                    ? std::span<const std::uint8_t>(*record.best)
                                                    : std::span<const std::uint8_t>());
    out.put("trainer.best_speedup", record.best_speedup);
    out.put("trainer.best_latency_fs", static_cast<std::int64_t>(record.best_latency_fs));
    agent->save(out);
    out.save(folder.checkpoint());
  }

  void read_checkpoint() {
    StateReader in = StateReader::load(folder.checkpoint());
    // Checkpoints record the version that wrote them since 0.2.0.
    checkpoint_version = in.next_is("memplace.version") ? in.get_text("memplace.version") : "";
    if (in.get_text("trainer.config") != config.to_yaml())
      throw InputError(folder.checkpoint().string() +
                       ": the checkpoint was written for another config than config.yaml");
    record.evaluations = in.get_u64("trainer.evaluations");
    wall_before = in.get_f64("trainer.wall_seconds");
    record.pending = in.get_u64("trainer.pending");
    record.pending_valid = in.get_u64("trainer.pending_valid");
    record.pending_speedup = in.get_f64("trainer.pending_speedup");
    const std::vector<double> rows = in.get_array<double>("trainer.curve");
    record.curve.clear();
    for (std::size_t i = 0; i + 5 <= rows.size(); i += 5) {
      record.curve.push_back(CurveRow{static_cast<std::uint64_t>(rows[i]), rows[i + 1], rows[i + 2],
                                      rows[i + 3], rows[i + 4]});
    }
    const bool has_best = in.get_u64("trainer.has_best") != 0;
    std::vector<std::uint8_t> best_mapping = in.get_array<std::uint8_t>("trainer.best");
    record.best_speedup = in.get_f64("trainer.best_speedup");
    record.best_latency_fs = in.get_i64("trainer.best_latency_fs");
    if (has_best) record.best = Mapping(best_mapping.begin(), best_mapping.end());
    agent->load(in);
    in.expect_end();
    last_checkpoint = record.evaluations;
  }
};

Trainer::Trainer(std::unique_ptr<State> state) : state_(std::move(state)) {}
Trainer::~Trainer() = default;
Trainer::Trainer(Trainer&&) noexcept = default;

Trainer::Trainer(TrainConfig config, fs::path run_dir, ProcessGroup& ranks)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.ranks = &ranks;
  s.folder.dir = std::move(run_dir);
  // Every rank checks before rank 0 creates anything (or the others would find its run).
  run_agreed(ranks, OnRanks::every, [&] {
    config.resolve();
    s.config = std::move(config);
    if (s.folder.has_run())
      throw InputError(s.folder.dir.string() +
                       ": already holds a run (resume it with --resume, or choose another --out)");
  });
  require_same_on_every_rank(ranks, s.config.to_yaml() + s.folder.dir.string(),
                             "was started with another train config or --out than rank 0; every "
                             "rank of a job must be given the same command");
  // The agent first: one that refuses its hyperparameters leaves no folder behind.
  run_agreed(ranks, OnRanks::every, [&] { s.build(); });
  run_agreed(ranks, OnRanks::leader_only, [&] {
    try {
      fs::create_directories(s.folder.dir);
    } catch (const fs::filesystem_error& e) {
      throw InputError(s.folder.dir.string() + ": cannot create the run folder (" +
                       e.code().message() + ")");
    }
  });
  run_agreed(ranks, OnRanks::leader_only,
             [&] { write_file_atomically(s.folder.config(), s.config.to_yaml()); });
}

Trainer Trainer::resume(const fs::path& run_dir, ProcessGroup& ranks) {
  auto state = std::make_unique<State>();
  State& s = *state;
  s.ranks = &ranks;
  s.folder.dir = run_dir;
  run_agreed(ranks, OnRanks::every, [&] {
    s.config = TrainConfig::load(s.folder.config());
    s.config.resolve();
    if (!s.folder.resumable())
      throw InputError(s.folder.checkpoint().string() +
                       ": no checkpoint to resume from (the run stopped before its first one)");
  });
  require_same_on_every_rank(ranks, s.config.to_yaml() + s.folder.dir.string(),
                             "was started to resume another run than rank 0; every rank of a job "
                             "must be given the same command");
  run_agreed(ranks, OnRanks::every, [&] {
    s.build();
    try {
      s.read_checkpoint();
    } catch (const InputError& e) {
      // Most often a checkpoint from a memplace whose records differ: say which and how to go on.
      throw InputError(std::string(e.what()) + "; memplace " + std::string(memplace_version()) +
                       " cannot resume it (" + checkpoint_origin(s.checkpoint_version) +
                       "): start the run afresh with `memplace train --config " +
                       s.folder.config().string() + " --out <a new folder>`");
    }
  });
  return Trainer(std::move(state));
}

Trainer Trainer::resume_or_start(TrainConfig config, const fs::path& run_dir) {
  if (RunFolder{run_dir}.resumable()) return resume(run_dir);
  fs::remove_all(run_dir);
  return Trainer(std::move(config), run_dir);
}

TrainResult Trainer::run(const std::function<void(const TrainProgress&)>& progress,
                         const std::function<bool()>& stop) {
  State& s = *state_;
  const auto start = std::chrono::steady_clock::now();
  auto wall = [&] {
    return s.wall_before +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  bool interrupted = false;
  double proposing_seconds = 0, scoring_seconds = 0, learning_seconds = 0;
  auto write_outputs = [&] {
    s.agent->gather_over_ranks();
    run_agreed(*s.ranks, OnRanks::leader_only, [&] { s.write_outputs(wall()); });
    s.last_checkpoint = s.record.evaluations;
  };
  while (s.record.evaluations < s.config.budget) {
    const auto limit = static_cast<std::size_t>(
        std::min<std::uint64_t>(s.config.budget - s.record.evaluations, kMaxBatch));
    const auto proposing = Clock::now();
    std::vector<Mapping> proposals = s.agent->propose(limit);
    proposing_seconds += seconds_since(proposing);
    const std::uint64_t model_evaluations = s.agent->take_model_evaluations();
    if (proposals.size() + model_evaluations > limit)
      throw std::logic_error(
          "agent '" + s.config.agent + "' proposed " + std::to_string(proposals.size()) +
          " mappings and spent " + std::to_string(model_evaluations) +
          " evaluations on its model, allowed " + std::to_string(limit) + " in all");
    s.record.charge(model_evaluations, wall());
    if (proposals.empty()) break;  // the agent is done (greedy-dp converged)
    bool stop_now = stop && stop();
    const auto scoring = Clock::now();
    const std::vector<Outcome> outcomes = s.evaluate(proposals, stop_now);
    scoring_seconds += seconds_since(scoring);
    const auto learning = Clock::now();
    s.agent->learn(proposals, outcomes);
    learning_seconds += seconds_since(learning);
    s.record_all(outcomes, wall());
    if (progress)
      progress(TrainProgress{s.record.evaluations, s.config.budget, s.record.best_speedup, wall(),
                             s.agent->status()});
    if (s.record.evaluations >= s.config.budget) break;
    if (stop_now) {
      interrupted = true;
      break;
    }
    if (s.record.evaluations - s.last_checkpoint >= s.config.checkpoint_every) write_outputs();
  }
  write_outputs();
  TrainResult result;
  result.evaluations = s.record.evaluations;
  result.wall_seconds = wall();
  result.proposing_seconds = proposing_seconds;
  result.scoring_seconds = scoring_seconds;
  result.learning_seconds = learning_seconds;
  result.interrupted = interrupted;
  result.best_mapping = s.record.best;
  result.best_speedup = s.record.best_speedup;
  result.best_latency_fs = s.record.best_latency_fs;
  return result;
}

const Agent& Trainer::agent() const {
  return *state_->agent;
}
const TrainConfig& Trainer::config() const {
  return state_->config;
}
const std::vector<CurveRow>& Trainer::curve() const {
  return state_->record.curve;
}
const fs::path& Trainer::run_dir() const {
  return state_->folder.dir;
}

std::unique_ptr<Agent> check_runnable(TrainConfig config) {
  config.resolve();
  config.threads = 1;
  Trainer::State state;
  state.config = std::move(config);
  state.build();
  return std::move(state.agent);
}

}  // namespace memplace::agents
