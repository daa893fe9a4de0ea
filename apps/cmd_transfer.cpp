// memplace transfer: train an agent on one workload, then place other workloads with its GNN
// policy zero-shot, without retraining (EGRL's generalisation experiment; docs/table.md).
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "agents/gnn_file.hpp"
#include "agents/trainer.hpp"
#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/progress.hpp"
#include "apps/run_options.hpp"
#include "env/atomic_file.hpp"
#include "env/env_options.hpp"
#include "env/model/mapping_io.hpp"
#include "env/model/workload.hpp"
#include "experiments/transfer.hpp"

namespace memplace::cli {
namespace {

namespace fs = std::filesystem;

struct TransferCommandOptions {
  agents::TrainConfig config;
  std::vector<std::string> targets;
  std::vector<std::string> hyperparameters;
  std::string out;
  bool quiet = false;
};

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

void run_transfer(TransferCommandOptions& o, Streams io) {
  agents::TrainConfig config = o.config;
  apply_hyperparameters(o.hyperparameters, config);
  std::vector<std::string> targets = o.targets;
  if (targets.empty())
    for (const std::string& w : paper_workload_names())
      if (w != config.workload) targets.push_back(w);
  const fs::path out = o.out.empty() ? fs::path("runs/transfer-" + config.agent + "-" +
                                                fs::path(config.workload).stem().string() + "-s" +
                                                std::to_string(config.seed))
                                     : fs::path(o.out);
  // Everything is checked before training: every target must load, and the agent must have a GNN
  // policy to transfer.
  for (const std::string& target : targets)
    (void)load_workload(target);
  if (!agents::check_runnable(config)->policy())
    throw InputError("agent '" + config.agent +
                     "' has no GNN policy to transfer (agents with one: ea, egrl, ppo, sac)");
  const fs::path run = out / "train";
  agents::Trainer trainer = agents::Trainer::resume_or_start(config, run);
  const agents::TrainResult result = run_with_progress(trainer, o.quiet, io.err);
  if (result.interrupted)
    throw Interrupted("training stopped at " + std::to_string(result.evaluations) +
                      " evaluations; rerun the same command to continue it");
  const std::optional<nn::Gnn<float>> policy = trainer.agent().policy();
  if (!policy) throw std::logic_error("the agent lost its policy while training");
  agents::save_gnn(out / "policy.gnn", *policy);

  std::ostringstream md, csv;
  md << "# Zero-shot transfer\n\n"
     << "The GNN policy of " << config.agent << " (seed " << config.seed << "), trained on "
     << config.workload << " for " << result.evaluations
     << " evaluations, places each workload with one forward pass (its greedy mapping), without "
        "retraining. Simulated speedup over each workload's compiler heuristic (not the NNP-I "
        "compiler). An invalid mapping overflows a memory; rectified, its overflowing tensors are "
        "demoted to slower memories until it fits, as a compiler would (env/model/rectify.hpp).\n\n"
     << "| workload | policy | valid | speedup | latency (us) | rectified: demotions | rectified: "
        "speedup |\n|---|---|---|---:|---:|---:|---:|\n";
  csv << "workload,role,valid,speedup,latency_us,demotions,rectified_speedup\n";
  std::vector<std::string> workloads = {config.workload};
  workloads.insert(workloads.end(), targets.begin(), targets.end());
  for (std::size_t k = 0; k < workloads.size(); ++k) {
    const experiments::ZeroShotResult r =
        experiments::evaluate_zero_shot(*policy, workloads[k], config.hardware);
    const std::string role = k == 0 ? "trained on" : "zero-shot";
    const std::string latency = fixed(static_cast<double>(r.latency_fs) * 1e-9, 2);
    md << "| " << fs::path(r.workload).stem().string() << " | " << role << " | "
       << (r.valid ? "yes" : "no") << " | " << (r.valid ? fixed(r.speedup, 4) : "—") << " | "
       << latency << " | " << r.demotions << " | " << fixed(r.rectified_speedup, 4) << " |\n";
    csv << r.workload << "," << role << "," << (r.valid ? "true" : "false") << ","
        << fixed(r.speedup, 9) << "," << latency << "," << r.demotions << ","
        << fixed(r.rectified_speedup, 9) << "\n";
    const Simulator sim(load_workload(r.workload), load_hardware(config.hardware));
    save_mapping(out / (fs::path(r.workload).stem().string() + "-mapping.yaml"), sim, r.mapping,
                 RecordedResult{r.latency_fs, r.valid});
  }
  if (result.best_mapping)
    md << "\nFor comparison, the best mapping the training run found on " << config.workload << ": "
       << fixed(result.best_speedup, 4) << "x.\n";
  write_file_atomically(out / "transfer.md", md.str());
  write_file_atomically(out / "transfer.csv", csv.str());
  io.out << md.str() << "\nfolder: " << out.string()
         << " (transfer.md, transfer.csv, policy.gnn, <workload>-mapping.yaml, train/)\n";
}

}  // namespace

void add_transfer_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "transfer", "Train on one workload, then place others zero-shot with the GNN policy");
  auto o = std::make_shared<TransferCommandOptions>();
  o->config.agent = "egrl";
  cmd->add_option("--agent", o->config.agent, "An agent with a GNN policy: egrl, ea, ppo, sac")
      ->capture_default_str();
  cmd->add_option("--train", o->config.workload, "The workload to train on")->capture_default_str();
  cmd->add_option("--to", o->targets,
                  "Workloads to place zero-shot (comma-separated; default: the other paper "
                  "workloads of resnet50, resnet101, bert-base)")
      ->delimiter(',');
  add_run_options(*cmd, o->config, o->hyperparameters);
  cmd->add_option("--out", o->out, "Folder (default runs/transfer-<agent>-<train>-s<seed>)");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress display");
  cmd->callback([io, o] { run_transfer(*o, io); });
}

}  // namespace memplace::cli
