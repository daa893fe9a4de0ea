// A GNN saved to disk (the policy.gnn of memplace transfer and of the generalization track): its
// config and its parameters as two records of a state archive (base/state_archive.hpp:
// versioned, checksummed, written atomically), the format of the trainer's checkpoints; and, for a
// policy that places models, a third record saying what it was trained for (PolicySpec), so that
// `memplace place` refuses it on another chip, env version or feature set.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "agents/nn/gnn.hpp"
#include "base/state_archive.hpp"
#include "model/model_spec.hpp"

namespace memplace::agents {

// The node features every policy reads today: the env's observation as it is.
inline constexpr std::string_view kObservationFeatures = "observation";

// What a policy was trained for.
struct PolicySpec {
  std::string agent;  // whose network it is (egrl, ppo, sac): a fine-tune runs that agent
  ModelVersion env_version = ModelVersion::v1;
  std::string hardware;  // the chip's name (its hardware model's `name`)
  std::string features = std::string(kObservationFeatures);  // the node features it reads

  // "agent=ppo env_version=v1 hardware=nnpi features=observation" and back; parse() throws
  // std::invalid_argument naming an unknown, missing or bad key.
  std::string to_string() const;
  static PolicySpec parse(std::string_view text);
  friend bool operator==(const PolicySpec&, const PolicySpec&) = default;
};

// The config record's text: "memplace-gnn " + GnnConfig::to_string().
std::string gnn_file_config(const nn::GnnConfig& config);

void save_gnn(const std::filesystem::path& path, const nn::Gnn<float>& model,
              const std::optional<PolicySpec>& spec = std::nullopt);
// Throws InputError naming the file on a missing, corrupt or foreign file.
nn::Gnn<float> load_gnn(const std::filesystem::path& path);
// As above, and the file must hold a model of exactly this config (the message names both).
nn::Gnn<float> load_gnn(const std::filesystem::path& path, const nn::GnnConfig& expected);

struct PolicyFile {
  nn::Gnn<float> gnn;
  std::optional<PolicySpec> spec;  // none in files saved without one
};
PolicyFile load_policy(const std::filesystem::path& path);
// The same from an archive's bytes (a shipped policy: agents/shipped_policies.hpp).
PolicyFile read_policy(StateReader in);

}  // namespace memplace::agents
