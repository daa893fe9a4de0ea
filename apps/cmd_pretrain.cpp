// memplace pretrain --hardware CHIP: one policy trained across many graphs — the chip's dev
// instances and a stream of procedural graphs — with a validation curve on held-out graphs
// (docs/place.md, "Training across graphs"; experiments/generalization/pretrain.hpp).
#include <cstdio>
#include <filesystem>

#include "agents/registry.hpp"
#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/run_options.hpp"
#include "apps/shared/stop_signals.hpp"
#include "apps/shared/validators.hpp"
#include "base/number_format.hpp"
#include "base/text.hpp"
#include "experiments/generalization/pretrain.hpp"
#include "model/inputs/suite.hpp"

namespace memplace::cli {
namespace {

namespace fs = std::filesystem;

struct PretrainCommandOptions {
  experiments::PretrainConfig config;
  std::string suite = "v1";
  std::uint64_t validation_graphs = 6;
  RunAssignments assignments;  // -p and -o, name=value
  std::string out;
  bool quiet = false;
};

// The suite's dev instances on the chip split in two: every third (the third, sixth, ...; the
// last of two) is held out for validation, with `graphs` procedural graphs of seeds 101, 102, ...
// (the kinds in turn), which no training segment draws (their seeds start at first_seed).
void split_dev(PretrainCommandOptions& o) {
  const Suite suite = load_suite(o.suite);
  std::vector<std::string> dev;
  for (const SuiteInstance& i : suite.instances)
    if (suite.split(i) == Split::dev && i.hardware == o.config.model.hardware)
      dev.push_back(i.workload);
  if (dev.empty())
    throw InputError("--hardware " + o.config.model.hardware + ": suite " + o.suite +
                     " has no dev instance on that chip");
  o.config.dev.clear();
  o.config.validation.clear();
  for (std::size_t i = 0; i < dev.size(); ++i) {
    const bool held_out = dev.size() == 2 ? i == 1 : i % 3 == 2;
    (held_out ? o.config.validation : o.config.dev).push_back(dev[i]);
  }
  for (std::uint64_t g = 0; g < o.validation_graphs; ++g)
    o.config.validation.push_back("procedural-" + o.config.kinds[g % o.config.kinds.size()] + "-s" +
                                  std::to_string(101 + g));
  if (o.config.first_seed <= 100 + o.validation_graphs)
    throw InputError("--first-seed " + std::to_string(o.config.first_seed) +
                     ": must be above the validation graphs' seeds (101.." +
                     std::to_string(100 + o.validation_graphs) + ")");
}

void run_pretrain_command(PretrainCommandOptions& o, Streams io) {
  o.assignments.apply(o.config.hyperparameters, o.config);
  split_dev(o);
  const fs::path out = o.out.empty() ? fs::path("runs/pretrain-" + o.config.agent + "-" +
                                                fs::path(o.config.model.hardware).stem().string())
                                     : fs::path(o.out);
  const StopOnSignals signals;
  const auto progress = [&](const experiments::PretrainProgress& p) {
    if (o.quiet) return;
    io.err << "[" << p.segment << "/" << p.segments << "] " << p.evaluations << " evaluations, "
           << format_fixed(p.wall_seconds, 1) << " s";
    if (!p.last_validation.empty()) io.err << "; validation: " << p.last_validation;
    io.err << "\n";
  };
  const experiments::PretrainResult r =
      experiments::run_pretrain(o.config, out, progress, [] { return stop_requested(); });
  if (r.interrupted)
    throw Interrupted("pretraining stopped after " + std::to_string(r.segments_done) +
                      " segments; rerun the same command to continue it");
  io.out << "trained " << o.config.agent << " on " << r.segments_done << " segments ("
         << r.evaluations << " evaluations); policy: " << (out / "policy.gnn").string()
         << ", validation curve: " << (out / "validation.csv").string() << "\n";
}

}  // namespace

void add_pretrain_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "pretrain", "Train one policy across many graphs (dev instances and procedural graphs)");
  auto o = std::make_shared<PretrainCommandOptions>();
  cmd->add_option("--agent", o->config.agent,
                  "An agent that starts from a GNN policy: " + join(agents::policy_agents(), ", "))
      ->capture_default_str();
  cmd->add_option("--hardware", o->config.model.hardware, "The chip (a shipped name)")
      ->required()
      ->check(kNonEmptyName);
  cmd->add_option("--suite", o->suite, "The suite whose dev instances are trained on")
      ->capture_default_str();
  cmd->add_option("--segments", o->config.segments, "Training segments, one graph each")
      ->transform(whole_number(1, 100'000'000))
      ->capture_default_str();
  cmd->add_option("--segment-budget", o->config.segment_budget, "Evaluations per segment")
      ->transform(whole_number(1, 100'000'000))
      ->capture_default_str();
  cmd->add_option("--validate-every", o->config.validate_every,
                  "Place the validation graphs zero-shot every this many segments")
      ->transform(whole_number(1, 100'000'000))
      ->capture_default_str();
  cmd->add_option("--dev-every", o->config.dev_every,
                  "Every this many segments, a dev instance (0: procedural graphs only)")
      ->transform(whole_number(0, 100'000'000))
      ->capture_default_str();
  cmd->add_option("--first-seed", o->config.first_seed,
                  "The procedural graphs' first seed (segment i draws first-seed + i)")
      ->transform(whole_number(0, 1'000'000'000'000))
      ->capture_default_str();
  cmd->add_option("--validation-graphs", o->validation_graphs,
                  "Procedural graphs held out for validation (seeds 101 ...)")
      ->transform(whole_number(0, 1000))
      ->capture_default_str();
  add_features_option(*cmd, o->config.features);
  add_assignment_options(*cmd, o->assignments);
  cmd->add_option("--out", o->out, "Folder (default runs/pretrain-<agent>-<chip>)")
      ->check(kNonEmptyName);
  cmd->add_flag("-q,--quiet", o->quiet, "No progress lines");
  cmd->callback([io, o] { run_pretrain_command(*o, io); });
}

}  // namespace memplace::cli
