// memplace generalize: the generalization track — policies trained on the suite's dev instances
// and procedural workloads, placing the test instances zero-shot, fine-tuned and against scratch
// (experiments/generalization/generalization.hpp, docs/table.md#the-generalization-track).
// Resumable.
#include <filesystem>

#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/stop_signals.hpp"
#include "apps/shared/validators.hpp"
#include "base/atomic_file.hpp"
#include "base/number_format.hpp"
#include "base/options.hpp"
#include "base/text.hpp"
#include "experiments/generalization/generalization.hpp"

namespace memplace::cli {
namespace {

struct GeneralizeOptions {
  experiments::GeneralizationConfig config;
  std::vector<std::string> env_options;  // -o name=value
  std::string out = "runs/generalization";
  bool quiet = false;
};

void run_generalize(GeneralizeOptions& o, Streams io) {
  OptionMap given;
  for (const std::string& a : o.env_options)
    parse_option_assignment(a, given, "--option");
  o.config.set_env_options(given);
  const StopOnSignals signals;
  const experiments::GeneralizationReport report = experiments::run_generalization(
      o.config, o.out,
      [&](const experiments::GeneralizationProgress& p) {
        if (!o.quiet)
          io.err << "[" << p.done << "/" << p.total << "] " << p.last_finished << "  ("
                 << format_duration(p.wall_seconds) << " elapsed)\n";
      },
      [] { return stop_requested(); });
  if (report.interrupted)
    throw Interrupted("stopped; rerun the same command to continue from the checkpoints");
  o.config.resolve();
  const std::filesystem::path out(o.out);
  const std::string markdown = experiments::generalization_markdown(o.config, report);
  write_file_atomically(out / "generalization.md", markdown);
  write_file_atomically(out / "generalization.csv", experiments::generalization_csv(report));
  write_file_atomically(out / "cross-hardware.csv", experiments::cross_hardware_csv(report));
  io.out << markdown << "\nfolder: " << o.out
         << " (generalization.md, generalization.csv, cross-hardware.csv, chains/, runs/)\n";
}

}  // namespace

void add_generalize_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "generalize",
      "The generalization track: train a policy per chip on the suite's dev split and procedural "
      "workloads, then place the test instances zero-shot, fine-tuned and from scratch");
  auto o = std::make_shared<GeneralizeOptions>();
  experiments::GeneralizationConfig& c = o->config;
  cmd->add_option("--suite", c.suite, "A shipped suite or a suite file")->capture_default_str();
  add_name_list(*cmd, "--agents", c.agents,
                "Agents that start from a GNN policy (comma-separated; default: every one, " +
                    join(c.agents, ", ") + ")");
  add_name_list(*cmd, "--chips", c.chips,
                "Chips to train on and place (default: every chip with dev and test instances)");
  add_name_list(*cmd, "--procedural", c.procedural,
                "Procedural workloads added to each chip's training set (comma-separated)");
  cmd->add_option("--train-budget", c.train_budget, "Evaluations per training segment")
      ->capture_default_str()
      ->transform(whole_number(1, std::uint64_t{1} << 40));
  cmd->add_option("--rounds", c.rounds, "Passes over the training workloads")
      ->capture_default_str()
      ->transform(whole_number(1, 100));
  cmd->add_option("-k,--k", c.k, "Evaluations of the fine-tuned and scratch runs")
      ->capture_default_str()
      ->transform(whole_number(1, std::uint64_t{1} << 40));
  cmd->add_option("--seeds", c.seeds, "Seeds of the fine-tuned and scratch runs (0 .. N-1)")
      ->capture_default_str()
      ->transform(whole_number(1, 1000));
  cmd->add_option("--init-temperature", c.init_temperature,
                  "The fine-tuned runs start from the policy with its logits divided by this "
                  "(docs/place.md#fine-tuning)")
      ->check(CLI::Range(agents::kMinInitTemperature, agents::kMaxInitTemperature))
      ->capture_default_str();
  cmd->add_option("-o,--option", o->env_options,
                  "A single-step env option for every run and placement (name=value: invalid, "
                  "reward, memory_time, dynamics, lookahead; docs/agents.md)");
  cmd->add_flag("--pretrain", c.pretrain,
                "Also start runs from a reward predictor trained on each chip's training workloads "
                "(extends a folder made without it)");
  cmd->add_option("--pretrain-steps", c.pretrain_steps,
                  "Steps of the reward predictor (32 mappings each)")
      ->capture_default_str()
      ->transform(whole_number(1, std::uint64_t{1} << 30));
  cmd->add_option("--policies", c.policies,
                  "A folder of trained policies, <agent>-<chip>.gnn (memplace pretrain's): place "
                  "and fine-tune from them instead of training the chains")
      ->check(kNonEmptyName);
  cmd->add_option("--jobs", c.jobs, "Runs at once, one thread each (0: one per core)")
      ->transform(whole_number(0, 1024));
  cmd->add_option("--out", o->out, "The folder; a rerun completes it")
      ->capture_default_str()
      ->check(kNonEmptyName);
  cmd->add_flag("-q,--quiet", o->quiet, "No progress lines");
  cmd->callback([io, o] { run_generalize(*o, io); });
}

}  // namespace memplace::cli
