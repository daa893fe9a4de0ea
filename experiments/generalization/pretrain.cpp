#include "experiments/generalization/pretrain.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "agents/nn/gnn_file.hpp"
#include "agents/registry.hpp"
#include "agents/training/run_folder.hpp"
#include "agents/training/trainer.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "base/options.hpp"
#include "base/text.hpp"
#include "base/yaml_input.hpp"
#include "experiments/generalization/transfer.hpp"
#include "experiments/suite/aggregate_statistics.hpp"
#include "experiments/table/table_references.hpp"
#include "experiments/table/table_report.hpp"
#include "model/inputs/procedural.hpp"

namespace memplace::experiments {
namespace {

namespace fs = std::filesystem;

struct Done {
  std::uint64_t segments = 0;
  std::uint64_t evaluations = 0;
};

Done read_progress(const fs::path& file) {
  if (!fs::exists(file)) return {};
  const YamlInput in(YamlInput::read_file(file), file.string());
  return {in.require(in.root(), "segments_done", "segments_done").as<std::uint64_t>(),
          in.require(in.root(), "evaluations", "evaluations").as<std::uint64_t>()};
}

void write_progress(const fs::path& file, const Done& done) {
  write_file_atomically(file, "segments_done: " + std::to_string(done.segments) +
                                  "\nevaluations: " + std::to_string(done.evaluations) + "\n");
}

// The validation that scored best so far: segment 0 for none yet.
struct Best {
  std::uint64_t segment = 0;
  double score = 0;
};

Best read_best(const fs::path& file) {
  if (!fs::exists(file)) return {};
  const YamlInput in(YamlInput::read_file(file), file.string());
  return {in.require(in.root(), "segment", "segment").as<std::uint64_t>(),
          in.require(in.root(), "score", "score").as<double>()};
}

void write_best(const fs::path& file, const Best& best) {
  // In full (%.17g round-trips): a resumed run compares later scores with it.
  write_file_atomically(file, "segment: " + std::to_string(best.segment) +
                                  "\nscore: " + format_significant(best.score, 17) + "\n");
}

// What a validation compares the policy with, per validation workload: computed once a call.
struct ValidationTarget {
  ZeroShotTarget target;
  double all_fast_rectified = 0;
  double bound = 0;
};

// The run of segment `k` (from 0), started from `init_policy` (none for the first).
agents::TrainConfig segment_config(const PretrainConfig& config, std::uint64_t k,
                                   const fs::path& init_policy) {
  agents::TrainConfig segment;
  static_cast<agents::ScoringEnv&>(segment) = config;
  segment.model.workload = config.workload_at(k);
  segment.agent = config.agent;
  segment.budget = config.segment_budget;
  segment.seed = k;
  segment.threads = 1;
  segment.hyperparameters = config.hyperparameters;
  segment.features = config.features;
  segment.init_policy = init_policy.string();
  segment.resolve();
  return segment;
}

}  // namespace

PretrainConfig::PretrainConfig() {
  set_env_version(ModelVersion::v1);
  set_env_options({{"invalid", "rectify"}});
}

std::string PretrainConfig::workload_at(std::uint64_t segment) const {
  if (dev_every > 0 && !dev.empty() && segment % dev_every == 0)
    return dev[(segment / dev_every) % dev.size()];
  return "procedural-" + kinds[segment % kinds.size()] + "-s" +
         std::to_string(first_seed + segment);
}

void PretrainConfig::check() const {
  // Each segment starts from the last one's policy.
  const auto continuing = agents::policy_agents();
  if (std::find(continuing.begin(), continuing.end(), agent) == continuing.end())
    throw InputError("pretrain: agent '" + agent +
                     "' has no GNN policy to start each segment from (agents with one: " +
                     join(continuing, ", ") + ")");
  if (kinds.empty()) throw InputError("pretrain: kinds: no procedural kind to draw graphs from");
  const std::vector<std::string> known = procedural_kind_names();
  for (const std::string& kind : kinds)
    if (std::find(known.begin(), known.end(), kind) == known.end())
      throw InputError("pretrain: kinds: '" + kind + "' is not a procedural kind (" +
                       join(known, ", ") + ")");
  if (validation.empty()) throw InputError("pretrain: validation: no workload to validate on");
  if (segment_budget == 0) throw InputError("pretrain: segment_budget: must be at least 1");
  if (validate_every == 0) throw InputError("pretrain: validate_every: must be at least 1");
  resolve_options("agent '" + agent + "'", agents::find_agent(agent).hyperparameters,
                  hyperparameters);
}

std::string PretrainConfig::to_yaml() const {
  std::ostringstream out;
  out << "# memplace pretrain config (docs/place.md#training-across-graphs-memplace-pretrain)\n"
      << "agent: " << yaml_quoted(agent) << "\n"
      << "hardware: " << yaml_quoted(model.hardware) << "\n"
      << "dev: " << yaml_quoted_list(dev) << "\n"
      << "validation: " << yaml_quoted_list(validation) << "\n"
      << "kinds: " << yaml_quoted_list(kinds) << "\n"
      << "first_seed: " << first_seed << "\n"
      << "dev_every: " << dev_every << "\n"
      << "segments: " << segments << "\n"
      << "segment_budget: " << segment_budget << "\n"
      << "validate_every: " << validate_every << "\n"
      << env_version_yaml() << env_options_yaml();
  if (features != agents::NodeFeatures::observation)
    out << "features: " << agents::name_of(features) << "\n";
  if (!hyperparameters.empty()) {
    out << "hyperparameters:\n";
    for (const auto& [key, value] : hyperparameters)
      out << "  " << key << ": " << yaml_quoted(value) << "\n";
  }
  return out.str();
}

PretrainResult run_pretrain(const PretrainConfig& config, const fs::path& out,
                            const std::function<void(const PretrainProgress&)>& progress,
                            const std::function<bool()>& stop) {
  config.check();
  // Every input checked before the folder is made (a hyperparameter or env option the agent
  // refuses, a validation workload that does not load), so that a refused command leaves no
  // config.yaml that would refuse the corrected one.
  (void)agents::check_runnable(segment_config(config, 0, {}));
  std::vector<ValidationTarget> targets;
  for (const std::string& w : config.validation) {
    ValidationTarget v;
    static_cast<agents::ScoringEnv&>(v.target) = config;
    v.target.model.workload = w;
    const WorkloadReference ref = workload_reference(v.target.model);
    v.all_fast_rectified = ref.all_fast_rectified_speedup;
    v.bound = ref.bound_speedup;
    targets.push_back(std::move(v));
  }
  try {
    fs::create_directories(out);
  } catch (const fs::filesystem_error& e) {
    throw InputError(out.string() + ": cannot create the folder (" + e.code().message() + ")");
  }
  const fs::path config_file = out / "config.yaml";
  // More segments extend a folder; any other change is another pretraining.
  if (fs::exists(config_file)) {
    const std::string saved = YamlInput::read_file(config_file);
    // Its lines but the comments and the number of segments.
    const auto without_segments = [](const std::string& yaml) {
      std::istringstream lines(yaml);
      std::string kept;
      for (std::string line; std::getline(lines, line);)
        if (!line.starts_with("#") && !line.starts_with("segments: ")) kept += line + "\n";
      return kept;
    };
    if (without_segments(saved) != without_segments(config.to_yaml()))
      throw InputError(config_file.string() +
                       ": the folder holds a pretraining with another config (only --segments "
                       "may change); remove it or give another --out");
  }
  write_file_atomically(config_file, config.to_yaml());
  const auto start = std::chrono::steady_clock::now();
  const auto wall = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const fs::path policy_file = out / "policy.gnn";
  // The policy after k segments; the last one kept until the next is committed in progress.yaml,
  // so that a kill anywhere resumes from the policy the next segment must start from.
  const auto policy_after = [&](std::uint64_t k) {
    return out / "policies" / (std::to_string(k) + ".gnn");
  };
  fs::create_directories(out / "policies");
  const fs::path progress_file = out / "progress.yaml";
  const fs::path validation_file = out / "validation.csv";
  const fs::path best_file = out / "best.yaml";
  Done done = read_progress(progress_file);

  std::string last_validation;
  // Places the validation workloads with the policy as it is after `segments` segments.
  const auto validate = [&] {
    const nn::Gnn<float> policy = agents::load_gnn(policy_after(done.segments));
    std::string rows = fs::exists(validation_file) ? YamlInput::read_file(validation_file)
                                                   : "segment,evaluations,workload,"
                                                     "zero_shot_speedup,all_fast_rectified_"
                                                     "speedup,bound_speedup\n";
    std::size_t above = 0;
    std::vector<double> shares;
    for (const ValidationTarget& v : targets) {
      const ZeroShotResult zero = evaluate_zero_shot(policy, v.target, config.features);
      above += zero.rectified_speedup > v.all_fast_rectified;
      if (const double share = share_of_gain(zero.rectified_speedup, v.bound); !std::isnan(share))
        shares.push_back(share);
      rows += std::to_string(done.segments) + "," + std::to_string(done.evaluations) + "," +
              v.target.model.workload + "," + format_fixed(zero.rectified_speedup, 6) + "," +
              format_fixed(v.all_fast_rectified, 6) + "," + format_fixed(v.bound, 6) + "\n";
    }
    const double score = shares.empty() ? 0.0 : interquartile_mean(shares);
    // best.gnn, then best.yaml, then the validation's rows (what says it was made): a kill
    // between them makes it again, with the same outcome.
    Best best = read_best(best_file);
    if (best.segment == 0 || score > best.score) {
      fs::copy_file(policy_after(done.segments), out / "best.gnn",
                    fs::copy_options::overwrite_existing);
      best = {done.segments, score};
      write_best(best_file, best);
    }
    write_file_atomically(validation_file, rows);
    last_validation = "zero-shot above the all-fast rule on " + std::to_string(above) + " of " +
                      std::to_string(targets.size()) + ", IQM share of the bound's gain " +
                      format_fixed(score, 3) + " (best " + format_fixed(best.score, 3) +
                      " after segment " + std::to_string(best.segment) + ")";
  };

  // A kill between a segment's commit and its validation: the validation is made now.
  const auto validates_at = [&](std::uint64_t k) {
    return k > 0 && (k % config.validate_every == 0 || k == config.segments);
  };
  if (validates_at(done.segments) &&
      (!fs::exists(validation_file) ||
       YamlInput::read_file(validation_file).find("\n" + std::to_string(done.segments) + ",") ==
           std::string::npos))
    validate();

  PretrainResult result;
  while (done.segments < config.segments) {
    if (stop && stop()) {
      result.interrupted = true;
      break;
    }
    const agents::TrainConfig segment = segment_config(
        config, done.segments, done.segments > 0 ? policy_after(done.segments) : fs::path());
    // The running segment's folder: resumed if it is this segment's, else started afresh.
    const fs::path folder = out / "segment";
    const agents::RunFolder run{folder};
    if (fs::exists(run.config()) && !(agents::TrainConfig::load(run.config()) == segment))
      fs::remove_all(folder);
    agents::Trainer trainer = agents::Trainer::resume_or_start(segment, folder);
    const agents::TrainResult r = trainer.run({}, stop);
    if (r.interrupted) {
      result.interrupted = true;
      break;
    }
    const nn::Gnn<float> policy = *trainer.agent().policy();
    const agents::PolicySpec spec = agents::policy_spec(segment);
    agents::save_gnn(policy_after(done.segments + 1), policy, spec);
    done.segments += 1;
    done.evaluations += r.evaluations;
    write_progress(progress_file, done);  // the commit point
    fs::remove(policy_after(done.segments - 1));
    fs::remove_all(folder);
    agents::save_gnn(policy_file, policy, spec);
    if (done.segments % config.validate_every == 0 || done.segments == config.segments) validate();
    if (progress)
      progress({done.segments, config.segments, done.evaluations, wall(), last_validation});
  }
  result.segments_done = done.segments;
  result.evaluations = done.evaluations;
  return result;
}

}  // namespace memplace::experiments
