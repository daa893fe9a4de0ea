// memplace transfer: train an agent on one workload and hardware model, then place other
// workloads, and the same ones on other hardware models, with its GNN policy zero-shot, without
// retraining (EGRL's generalisation experiment; docs/table.md, docs/hardware.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "agents/nn/gnn_file.hpp"
#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/progress.hpp"
#include "apps/shared/run_options.hpp"
#include "apps/shared/validators.hpp"
#include "base/atomic_file.hpp"
#include "base/markdown_table.hpp"
#include "base/number_format.hpp"
#include "base/options.hpp"
#include "base/text.hpp"
#include "experiments/generalization/transfer.hpp"
#include "experiments/table/table_references.hpp"
#include "model/inputs/workload.hpp"
#include "model/mapping_io.hpp"

namespace memplace::cli {
namespace {

namespace fs = std::filesystem;

struct TransferCommandOptions {
  agents::TrainConfig config;
  std::vector<std::string> targets;
  std::vector<std::string> to_hardware;
  RunAssignments assignments;
  std::string out;
  bool quiet = false;
};

// The targets: every workload (the trained one first) on every hardware model (the trained one
// first), as the training run's env version and options score them.
std::vector<experiments::ZeroShotTarget> zero_shot_targets(
    const agents::TrainConfig& config, const std::vector<std::string>& workloads,
    const std::vector<std::string>& hardware) {
  std::vector<std::string> chips = {config.model.hardware};
  for (const std::string& h : hardware)
    if (std::find(chips.begin(), chips.end(), h) == chips.end()) chips.push_back(h);
  std::vector<experiments::ZeroShotTarget> targets;
  for (const std::string& chip : chips)
    for (const std::string& w : workloads) {
      experiments::ZeroShotTarget target = config;
      target.model.workload = w;
      target.model.hardware = chip;
      targets.push_back(std::move(target));
    }
  return targets;
}

void run_transfer(TransferCommandOptions& o, Streams io) {
  agents::TrainConfig config = o.config;
  o.assignments.apply(config);
  std::vector<std::string> workloads = {config.model.workload};
  if (o.targets.empty()) {
    for (const std::string& w : paper_workload_names())
      if (w != config.model.workload) workloads.push_back(w);
  } else {
    for (const std::string& w : o.targets)
      if (w != config.model.workload) workloads.push_back(w);
  }
  const std::vector<experiments::ZeroShotTarget> targets =
      zero_shot_targets(config, workloads, o.to_hardware);
  const fs::path out = o.out.empty() ? fs::path("runs/transfer-" + config.agent + "-" +
                                                fs::path(config.model.workload).stem().string() +
                                                "-s" + std::to_string(config.seed))
                                     : fs::path(o.out);
  // Everything is checked before training: every target must load, and the agent must have a GNN
  // policy to transfer.
  for (const std::string& w : workloads)
    (void)load_workload(w);
  for (const std::string& h : o.to_hardware)
    (void)load_hardware(h);
  if (!agents::check_runnable(config)->policy())
    throw InputError("agent '" + config.agent +
                     "' has no GNN policy to transfer (agents with one: " +
                     join(agents::agents_with_policy(), ", ") + ")");
  const fs::path run = out / "train";
  agents::Trainer trainer = agents::Trainer::resume_or_start(config, run);
  const agents::TrainResult result = run_with_progress(trainer, o.quiet, io.err);
  if (result.interrupted)
    throw Interrupted("training stopped at " + std::to_string(result.evaluations) +
                      " evaluations; rerun the same command to continue it");
  const std::optional<nn::Gnn<float>> policy = trainer.agent().policy();
  if (!policy) throw std::logic_error("the agent lost its policy while training");
  agents::save_gnn(out / "policy.gnn", *policy, agents::policy_spec(config));

  std::ostringstream md, csv;
  md << "# Zero-shot transfer\n\n"
     << "The GNN policy of " << config.agent << " (seed " << config.seed << "), trained on "
     << config.model.workload << " @ " << config.model.hardware << " ("
     << version_name(config.env_version) << ") for " << result.evaluations
     << " evaluations, places each workload with one forward pass (its greedy mapping), without "
        "retraining. Speedups are simulated, over each target's compiler heuristic ("
     << config.model.dynamics.model().compiler_name()
     << "); beside them the target's references: the optimum (or the best known mapping) and "
        "the bound no mapping beats (docs/hardware.md). An invalid mapping overflows a memory; "
        "rectified, its overflowing tensors are demoted to slower memories until it fits, as a "
        "compiler would (model/rectify.hpp). On a chip with another number of memories the "
        "policy's choices are carried over by rank: the slowest stays the slowest, the faster "
        "ones are clipped to the chip's faster memories.\n\n";
  using Align = MarkdownTable::Align;
  MarkdownTable table({{"workload"},
                       {"hardware"},
                       {"policy"},
                       {"valid"},
                       {"speedup", Align::right},
                       {"latency (us)", Align::right},
                       {"rectified: demotions", Align::right},
                       {"rectified: speedup", Align::right},
                       {"optimum or best known", Align::right},
                       {"bound", Align::right}});
  csv << "workload,hardware,role,valid,speedup,latency_us,demotions,rectified_speedup,"
         "reference_speedup,reference_proven,bound_speedup\n";
  for (const experiments::ZeroShotTarget& target : targets) {
    const experiments::ZeroShotResult r =
        experiments::evaluate_zero_shot(*policy, target, config.features);
    // The target's references (compiler = 1): the proven optimum or the best known, the bound.
    const experiments::WorkloadReference ref = experiments::workload_reference(target.model);
    const double reference = experiments::attainable_speedup(ref, 0);
    const bool trained_on = target.model.workload == config.model.workload &&
                            target.model.hardware == config.model.hardware;
    const std::string role = trained_on ? "trained on" : "zero-shot";
    const std::string workload = fs::path(r.workload).stem().string();
    const std::string hardware = fs::path(r.hardware).stem().string();
    const std::string latency = format_fixed(static_cast<double>(r.latency_fs) * 1e-9, 2);
    table.add_row({workload, hardware, role, r.valid ? "yes" : "no",
                   r.valid ? format_fixed(r.speedup, 4) : "—", latency, std::to_string(r.demotions),
                   format_fixed(r.rectified_speedup, 4),
                   reference > 0
                       ? format_fixed(reference, 4) + (ref.optimum_proven ? " (optimum)" : "")
                       : "—",
                   format_fixed(ref.bound_speedup, 4)});
    csv << r.workload << "," << r.hardware << "," << role << "," << (r.valid ? "true" : "false")
        << "," << format_fixed(r.speedup, 9) << "," << latency << "," << r.demotions << ","
        << format_fixed(r.rectified_speedup, 9) << "," << format_fixed(reference, 9) << ","
        << (ref.optimum_proven ? "true" : "false") << "," << format_fixed(ref.bound_speedup, 9)
        << "\n";
    const std::string file = workload + (targets.size() > workloads.size() ? "@" + hardware : "");
    save_mapping(out / (file + "-mapping.yaml"), *r.simulator, r.mapping,
                 RecordedResult{r.latency_fs, r.valid});
  }
  md << table.str();
  if (result.best_mapping)
    md << "\nFor comparison, the best mapping the training run found on " << config.model.workload
       << ": " << format_fixed(result.best_speedup, 4) << "x.\n";
  write_file_atomically(out / "transfer.md", md.str());
  write_file_atomically(out / "transfer.csv", csv.str());
  io.out << md.str() << "\nfolder: " << out.string()
         << " (transfer.md, transfer.csv, policy.gnn, <workload>[@<hardware>]-mapping.yaml, "
            "train/)\n";
}

}  // namespace

void add_transfer_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "transfer", "Train on one workload, then place others zero-shot with the GNN policy");
  auto o = std::make_shared<TransferCommandOptions>();
  o->config.agent = agents::agents_with_policy().front();
  cmd->add_option("--agent", o->config.agent,
                  "An agent with a GNN policy: " + join(agents::agents_with_policy(), ", "))
      ->capture_default_str();
  cmd->add_option("--train", o->config.model.workload, "The workload to train on")
      ->capture_default_str();
  add_name_list(*cmd, "--to", o->targets,
                "Workloads to place zero-shot (comma-separated; default: the other paper "
                "workloads of resnet50, resnet101, bert-base)");
  add_name_list(*cmd, "--to-hardware", o->to_hardware,
                "Hardware models to place them on too (comma-separated shipped names or files; "
                "the training hardware is always one)");
  add_run_options(*cmd, o->config, o->assignments, /*addressed=*/false);
  cmd->add_option("--out", o->out, "Folder (default runs/transfer-<agent>-<train>-s<seed>)")
      ->check(kNonEmptyName);
  cmd->add_flag("-q,--quiet", o->quiet, "No progress display");
  cmd->callback([io, o] { run_transfer(*o, io); });
}

}  // namespace memplace::cli
