// memplace train: one agent on one workload for a budget of evaluations, into a run folder
// (agents/training/trainer.hpp); --resume continues an interrupted run exactly.
#include <cstdio>
#include <filesystem>

#include "agents/registry.hpp"
#include "agents/training/run_folder.hpp"
#include "agents/training/trainer.hpp"
#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/progress.hpp"
#include "apps/shared/run_options.hpp"
#include "apps/shared/validators.hpp"
#include "base/number_format.hpp"
#include "base/options.hpp"

namespace memplace::cli {
namespace {

struct TrainCommandOptions {
  agents::TrainConfig config;
  std::string config_file;
  std::string out;
  std::string resume;
  RunAssignments assignments;  // -p and -o, name=value
  bool quiet = false;
};

void print_summary(const agents::Trainer& trainer, const agents::TrainResult& result,
                   std::ostream& out) {
  const agents::TrainConfig& c = trainer.config();
  out << "agent " << c.agent << " on " << c.model.workload << " (seed " << c.seed
      << "): " << result.evaluations << " evaluations in " << format_fixed(result.wall_seconds, 1)
      << " s (proposing " << format_fixed(result.proposing_seconds, 2) << " s, scoring "
      << format_fixed(result.scoring_seconds, 2) << " s, learning "
      << format_fixed(result.learning_seconds, 2) << " s)\n";
  if (result.best_mapping) {
    out << "best speedup over the compiler: " << format_fixed(result.best_speedup, 4)
        << "x (latency " << format_fixed(static_cast<double>(result.best_latency_fs) * 1e-9, 2)
        << " us)\n";
  } else {
    out << "no valid mapping found\n";
  }
  out << "run folder: " << trainer.run_dir().string() << "\n";
  if (result.best_mapping)
    out << "replay: memplace evaluate " << c.model.workload << " "
        << agents::RunFolder{trainer.run_dir()}.best_mapping().string() << "\n";
}

void run_train(TrainCommandOptions& o, const CLI::App& cmd, Streams io) {
  std::optional<agents::Trainer> trainer;
  agents::TrainConfig config;
  std::string out;
  // The ranks' first agreement (apps/cli.cpp): each has read its arguments.
  run_agreed(io.ranks, OnRanks::every, [&] {
    if (!o.resume.empty()) {
      if (cmd.count("--agent") + cmd.count("--workload") + cmd.count("--budget") +
              cmd.count("--seed") + cmd.count("--config") + cmd.count("-p") + cmd.count("-o") +
              cmd.count("--env-version") + cmd.count("--init-policy") +
              cmd.count("--init-temperature") >
          0)
        throw InputError("--resume continues a run as configured; other run options do not apply");
      return;
    }
    if (!o.config_file.empty()) config = agents::TrainConfig::load(o.config_file);
    // Options on the command line override the config file.
    if (cmd.count("--agent")) config.agent = o.config.agent;
    if (cmd.count("--workload")) config.model.workload = o.config.model.workload;
    if (cmd.count("--hardware")) config.model.hardware = o.config.model.hardware;
    if (cmd.count("--env")) config.env = o.config.env;
    if (cmd.count("--env-version")) config.set_env_version(o.config.env_version);
    if (cmd.count("--budget")) config.budget = o.config.budget;
    if (cmd.count("--seed")) config.seed = o.config.seed;
    if (cmd.count("--threads")) config.threads = o.config.threads;
    if (cmd.count("--checkpoint-every")) config.checkpoint_every = o.config.checkpoint_every;
    if (cmd.count("--init-policy")) config.init_policy = o.config.init_policy;
    if (cmd.count("--init-temperature")) config.init_temperature = o.config.init_temperature;
    o.assignments.apply(config);
    out = o.out.empty() ? "runs/" + config.agent + "-" +
                              std::filesystem::path(config.model.workload).stem().string() + "-s" +
                              std::to_string(config.seed)
                        : o.out;
  });
  if (!o.resume.empty())
    trainer.emplace(agents::Trainer::resume(o.resume, io.ranks));
  else
    trainer.emplace(std::move(config), out, io.ranks);
  // Rank 0 prints for the job.
  const agents::TrainResult result =
      run_with_progress(*trainer, o.quiet || !io.ranks.leader(), io.err, io.ranks.size());
  if (io.ranks.leader()) print_summary(*trainer, result, io.out);
  if (result.interrupted)
    throw Interrupted("stopped at " + std::to_string(result.evaluations) +
                      " evaluations; continue with: memplace train --resume " +
                      trainer->run_dir().string());
}

}  // namespace

void add_train_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "train", "Train an agent on a workload for a budget of simulator evaluations");
  auto o = std::make_shared<TrainCommandOptions>();
  std::string agents;
  for (const auto& info : agents::agent_registry())
    agents += (agents.empty() ? "" : ", ") + info.name;
  cmd->add_option("--agent", o->config.agent, "The agent: " + agents)->capture_default_str();
  cmd->add_option("--workload", o->config.model.workload,
                  "A shipped workload or a workload YAML file")
      ->capture_default_str();
  cmd->add_option("--env", o->config.env,
                  "How mappings are built: single-step, or sequential (tensor by tensor under "
                  "the sequential env's mask); default: the agent's first (memplace list)")
      ->check(kNonEmptyName);
  add_run_options(*cmd, o->config, o->assignments, /*addressed=*/true);
  cmd->add_option("--checkpoint-every", o->config.checkpoint_every,
                  "Evaluations between checkpoints")
      ->transform(whole_number(1, std::uint64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--init-policy", o->config.init_policy,
                  "Start the agent's GNN from a trained policy.gnn (fine-tuning; egrl, ppo, sac: "
                  "docs/agents.md)");
  cmd->add_option("--init-temperature", o->config.init_temperature,
                  "With --init-policy: divide the trained policy's logits by this at the start "
                  "(above 1 a near-deterministic policy explores again; docs/place.md)")
      ->check(CLI::Range(agents::kMinInitTemperature, agents::kMaxInitTemperature))
      ->capture_default_str();
  cmd->add_option("--out", o->out, "Run folder (default runs/<agent>-<workload>-s<seed>)")
      ->check(kNonEmptyName);
  cmd->add_option("--config", o->config_file,
                  "A train config YAML (a run's config.yaml reruns it); options given here win")
      ->check(kNonEmptyName);
  cmd->add_option("--resume", o->resume, "Continue the run in this folder from its checkpoint")
      ->check(kNonEmptyName);
  cmd->add_flag("-q,--quiet", o->quiet, "No progress display");
  cmd->callback([io, o, cmd] { run_train(*o, *cmd, io); });
}

}  // namespace memplace::cli
