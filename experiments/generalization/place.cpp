#include "experiments/generalization/place.hpp"

#include <optional>

#include "agents/shipped_policies.hpp"
#include "agents/training/run_folder.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "base/text.hpp"
#include "env/single_step_env.hpp"
#include "experiments/generalization/transfer.hpp"
#include "experiments/table/table_references.hpp"
#include "model/inputs/hardware.hpp"
#include "model/rectify.hpp"
#include "model/references.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;

// The policy's spec; for a file saved without one (`memplace transfer` and the track before
// 2026-11-29), the env version whose observation of the model has the policy's number of node
// features (v1 first: the track's; v0 is memplace train's default), the observation's features,
// agent and chip unknown.
agents::PolicySpec spec_of(const agents::PolicyFile& file, const ModelSpec& model) {
  if (file.spec) return *file.spec;
  agents::PolicySpec assumed;
  assumed.env_version = ModelVersion::v1;
  for (const ModelVersion version : {ModelVersion::v1, ModelVersion::v0}) {
    agents::ScoringEnv scoring;
    scoring.model = model;
    scoring.set_env_version(version);
    const std::unique_ptr<SingleStepEnv> env =
        SingleStepEnv::make(scoring.model, scoring.env_version, scoring.scoring);
    if (env->reset(0).obs.num_features() == file.gnn.config().input_features) {
      assumed.env_version = version;
      break;
    }
  }
  return assumed;
}

void check_fits(const std::string& source, const agents::PolicySpec& spec,
                const Hardware& hardware) {
  const std::string trained = source + ": a policy trained for " + spec.to_string();
  try {
    agents::parse_node_features(spec.features);
  } catch (const InputError& e) {
    throw InputError(trained + "; this memplace does not compute its node features: " + e.what());
  }
  if (!spec.hardware.empty() && spec.hardware != hardware.name)
    throw InputError(trained + "; the model's chip is '" + hardware.name +
                     "': place it with a policy trained for that chip");
}

// The policy a request names: a file; else a shipped policy by name; none named, the chip's.
struct GivenPolicy {
  agents::PolicyFile file;
  std::string shipped;  // its name if it is a shipped one
  std::string source;   // for messages
};

GivenPolicy given_policy(const fs::path& policy, const Hardware& hardware) {
  std::string name = policy.string();
  if (policy.empty()) {
    const std::optional<std::string> shipped = agents::shipped_policy_for(hardware.name);
    if (!shipped)
      throw InputError("no policy ships for the chip '" + hardware.name +
                       "' (shipped: " + join(agents::shipped_policy_names(), ", ") +
                       "); give a policy file (--policy)");
    name = *shipped;
  }
  if (policy.empty() || !fs::exists(policy))
    if (std::optional<agents::PolicyFile> file = agents::load_shipped_policy(name))
      return {std::move(*file), name, "the shipped policy " + name};
  return {agents::load_policy(policy), "", policy.string()};
}

}  // namespace

double default_fine_tune_temperature(const std::string& agent) {
  return agent == "ppo" ? 4.0 : 1.0;
}

PlaceResult place(const PlaceRequest& request) {
  const Hardware hardware = load_hardware(request.hardware);
  const GivenPolicy given = given_policy(request.policy, hardware);
  const agents::PolicyFile& policy = given.file;
  PlaceResult r;
  r.policy_source = given.source;
  ModelSpec model;
  model.workload = request.workload;
  model.hardware = request.hardware;
  r.policy = spec_of(policy, model);
  r.policy_has_spec = policy.spec.has_value();
  check_fits(given.source, r.policy, hardware);
  if (request.budget > 0 && r.policy.agent.empty())
    throw InputError(given.source +
                     ": the policy records no agent to fine-tune it with (a file saved without "
                     "a policy spec); place it zero-shot (budget 0)");
  if (request.budget > 0 && request.fine_tune_dir.empty())
    throw InputError("a fine-tune (budget " + std::to_string(request.budget) +
                     ") needs a folder for its run");

  // Scored as the track scores: an overflowing mapping is rectified before it is scored.
  ZeroShotTarget target;
  target.model = model;
  target.set_env_version(r.policy.env_version);
  target.set_env_options({{"invalid", "rectify"}});
  const agents::NodeFeatures features = agents::parse_node_features(r.policy.features);
  const ZeroShotResult zero = evaluate_zero_shot(policy.gnn, target, features);
  r.simulator = zero.simulator;
  r.zero_shot_valid = zero.valid;
  r.zero_shot_demotions = zero.demotions;
  r.zero_shot_speedup = zero.rectified_speedup;
  r.mapping = zero.rectified;
  r.speedup = zero.rectified_speedup;

  if (request.budget > 0) {
    agents::TrainConfig config;
    static_cast<agents::ScoringEnv&>(config) = target;
    config.agent = r.policy.agent;
    config.budget = request.budget;
    config.seed = request.seed;
    if (given.shipped.empty()) {
      config.init_policy = request.policy.string();
    } else {
      // A run starts from a file: the shipped policy's bytes, beside the run folder.
      const fs::path file = request.fine_tune_dir.parent_path() / (given.shipped + ".gnn");
      agents::write_shipped_policy(given.shipped, file);
      config.init_policy = file.string();
    }
    config.features = features;
    config.init_temperature =
        request.init_temperature.value_or(default_fine_tune_temperature(config.agent));
    config.resolve();
    // A folder holding another request's fine-tune (another budget, seed, policy or model) is
    // not continued as if it were this one's.
    const agents::RunFolder folder{request.fine_tune_dir};
    if (std::filesystem::exists(folder.config()) &&
        !(agents::TrainConfig::load(folder.config()) == config))
      throw InputError(request.fine_tune_dir.string() +
                       " holds the fine-tune of another request (another budget, seed, policy or "
                       "model: its config.yaml); remove it or place into another folder");
    agents::Trainer trainer = agents::Trainer::resume_or_start(config, request.fine_tune_dir);
    const agents::TrainResult fine =
        request.run_fine_tune ? request.run_fine_tune(trainer) : trainer.run();
    r.fine_tune_evaluations = fine.evaluations;
    if (fine.interrupted) {
      r.fine_tune_interrupted = true;
      return r;
    }
    if (fine.best_mapping) {
      // Scored again here, rectified if it overflows, as the zero-shot mapping is.
      const Simulator& sim = *r.simulator;
      Mapping tuned = *fine.best_mapping;
      if (!sim.evaluate(tuned).valid) tuned = rectify(sim, tuned).mapping;
      const Evaluation e = sim.evaluate(tuned);
      if (e.valid) {
        r.fine_tuned_speedup = speedup(reference_latencies(sim).compiler_fs, e.latency_fs);
        if (r.fine_tuned_speedup > r.speedup) {
          r.mapping = std::move(tuned);
          r.speedup = r.fine_tuned_speedup;
        }
      }
    }
  }
  r.latency_fs = r.simulator->evaluate(r.mapping).latency_fs;

  const WorkloadReference reference = workload_reference(target.model);
  r.all_fast_rectified_speedup = reference.all_fast_rectified_speedup;
  r.bound_speedup = reference.bound_speedup;
  return r;
}

}  // namespace memplace::experiments
