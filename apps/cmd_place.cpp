// memplace place MODEL --hardware CHIP [--policy FILE]: a model placed by a trained policy (by
// default the one memplace ships for the chip) — its
// greedy mapping rectified, optionally fine-tuned — against the compiler, the all-fast rule and
// the bound, written as a mapping file `memplace evaluate` replays (docs/place.md).
#include <filesystem>

#include <nlohmann/json.hpp>

#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/onnx_dims.hpp"
#include "apps/shared/progress.hpp"
#include "apps/shared/validators.hpp"
#include "base/errors.hpp"
#include "base/made_folders.hpp"
#include "base/number_format.hpp"
#include "experiments/generalization/place.hpp"
#include "model/inputs/workload.hpp"
#include "model/mapping_io.hpp"

namespace memplace::cli {
namespace {

namespace fs = std::filesystem;

struct PlaceCommandOptions {
  std::string model;
  std::string hardware;
  std::string policy;
  std::uint64_t budget = 0;
  std::uint64_t seed = 0;
  std::optional<double> init_temperature;
  std::vector<std::string> dims;
  std::string out;
  bool json = false;
  bool quiet = false;
};

// An ONNX model becomes a workload YAML in the output folder (what the mapping names and
// `memplace evaluate` reads); a shipped name or a YAML file is used as it is.
std::string workload_to_place(const PlaceCommandOptions& o, const fs::path& out) {
  if (fs::path(o.model).extension() != ".onnx" && !o.dims.empty())
    throw InputError("--dim is for ONNX models; " + o.model + " is not one");
  ImportOptions options;
  parse_dims(o.dims, options);
  return workload_from_model(o.model, options, out);
}

std::string times(double speedup) {
  return speedup > 0 ? format_fixed(speedup, 4) + "x" : "nothing valid";
}

void place_into(const fs::path& out, const PlaceCommandOptions& o, Streams io) {
  fs::create_directories(out);
  check_writable((out / "mapping.yaml").string());
  experiments::PlaceRequest request;
  request.workload = workload_to_place(o, out);
  request.hardware = o.hardware;
  request.policy = o.policy;
  request.budget = o.budget;
  request.seed = o.seed;
  request.init_temperature = o.init_temperature;
  request.fine_tune_dir = out / "fine-tune";
  request.run_fine_tune = [&](agents::Trainer& trainer) {
    return run_with_progress(trainer, o.quiet || o.json, io.err);
  };
  const experiments::PlaceResult r = experiments::place(request);
  if (r.fine_tune_interrupted)
    throw Interrupted("the fine-tune stopped at " + std::to_string(r.fine_tune_evaluations) +
                      " evaluations; rerun the same command to continue it");
  const Simulator& sim = *r.simulator;
  const fs::path mapping_file = out / "mapping.yaml";
  save_mapping(mapping_file, sim, r.mapping, RecordedResult{r.latency_fs, r.speedup > 0});

  if (o.json) {
    nlohmann::json doc = {{"workload", sim.workload().name()},
                          {"hardware", sim.hardware().name},
                          {"policy", r.policy_source},
                          {"policy_spec", r.policy_has_spec ? r.policy.to_string() : ""},
                          {"speedup", r.speedup},
                          {"latency_fs", r.latency_fs},
                          {"zero_shot_valid", r.zero_shot_valid},
                          {"zero_shot_demotions", r.zero_shot_demotions},
                          {"zero_shot_speedup", r.zero_shot_speedup},
                          {"fine_tune_evaluations", r.fine_tune_evaluations},
                          {"fine_tuned_speedup", r.fine_tuned_speedup},
                          {"all_fast_rectified_speedup", r.all_fast_rectified_speedup},
                          {"bound_speedup", r.bound_speedup},
                          {"mapping_file", mapping_file.string()},
                          {"workload_file", request.workload}};
    io.out << doc.dump(2) << "\n";
    return;
  }
  io.out << sim.workload().name() << " on " << sim.hardware().name << ", placed by "
         << r.policy_source << " ("
         << (r.policy_has_spec ? r.policy.to_string() : "no policy spec: env v1 assumed") << ")\n"
         << "  zero-shot (greedy mapping"
         << (r.zero_shot_valid ? ", fits as placed"
                               : ", rectified: " + std::to_string(r.zero_shot_demotions) +
                                     " tensors moved to slower memories")
         << "): " << times(r.zero_shot_speedup) << " over the compiler\n";
  if (o.budget > 0)
    io.out << "  fine-tuned (" << r.fine_tune_evaluations
           << " evaluations): " << times(r.fine_tuned_speedup) << "\n";
  io.out << "  placement: " << times(r.speedup) << " over the compiler; every tensor in the "
         << "fastest memory, rectified: " << times(r.all_fast_rectified_speedup)
         << "; bound (no mapping beats it): " << times(r.bound_speedup) << "\n"
         << "wrote " << mapping_file.string() << " (memplace evaluate " << request.workload << " "
         << mapping_file.string()
         << (fs::exists(o.hardware) ? " --hardware " + o.hardware : std::string()) << ")\n";
}

// The policy, the chip and the model are checked only once an ONNX model's workload is written
// into the output folder (experiments::place reads it from there).
void run_place(const PlaceCommandOptions& o, Streams io) {
  const fs::path out = o.out.empty() ? fs::path("runs/place-" + fs::path(o.model).stem().string() +
                                                "-" + fs::path(o.hardware).stem().string())
                                     : fs::path(o.out);
  removing_made_folders_on_bad_input(out, [&] { place_into(out, o, io); });
}

}  // namespace

void add_place_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "place", "Place a model with a trained policy (zero-shot, or fine-tuned for --budget)");
  auto o = std::make_shared<PlaceCommandOptions>();
  cmd->add_option("model", o->model,
                  "A shipped workload name, a workload YAML file or an ONNX model (.onnx)")
      ->required()
      ->check(kNonEmptyName);
  cmd->add_option("--hardware", o->hardware, "The chip: a shipped name or a hardware YAML file")
      ->required()
      ->check(kNonEmptyName);
  cmd->add_option("--policy", o->policy,
                  "The policy: a policy file (memplace pretrain's best.gnn, transfer's or the "
                  "track's policy.gnn) or a shipped policy's name; default: the one memplace "
                  "ships for the chip")
      ->check(kNonEmptyName);
  cmd->add_option("--budget", o->budget,
                  "Fine-tune the policy for this many evaluations first (its agent's run, from "
                  "the policy; 0: zero-shot only)")
      ->transform(whole_number(0, 100'000'000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "The fine-tune's seed")->capture_default_str();
  cmd->add_option("--init-temperature", o->init_temperature,
                  "The fine-tune starts from the policy with its logits divided by this (default: "
                  "4 for a ppo policy, 1 for the others; docs/place.md#fine-tuning)")
      ->check(CLI::Range(agents::kMinInitTemperature, agents::kMaxInitTemperature));
  cmd->add_option("--dim", o->dims,
                  "With an ONNX model: a symbolic input dimension's value, name=value "
                  "(repeatable; docs/workloads.md, shapes)");
  cmd->add_option("-o,--out", o->out,
                  "Folder for mapping.yaml, an ONNX model's workload YAML and the fine-tune's run "
                  "(default runs/place-<model>-<chip>)")
      ->check(kNonEmptyName);
  cmd->add_flag("--json", o->json, "Print JSON (and no progress display)");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress display for the fine-tune");
  cmd->callback([io, o] { run_place(*o, io); });
}

}  // namespace memplace::cli
