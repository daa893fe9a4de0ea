// A GNN saved to disk (the policy.gnn of memplace transfer): its config and its parameters as two
// records of a state archive (base/state_archive.hpp: versioned, checksummed, written
// atomically), the format of the trainer's checkpoints.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "agents/nn/gnn.hpp"

namespace memplace::agents {

// The config record's text: "memplace-gnn " + GnnConfig::to_string().
std::string gnn_file_config(const nn::GnnConfig& config);

void save_gnn(const std::filesystem::path& path, const nn::Gnn<float>& model);
// Throws InputError naming the file on a missing, corrupt or foreign file.
nn::Gnn<float> load_gnn(const std::filesystem::path& path);
// As above, and the file must hold a model of exactly this config (the message names both).
nn::Gnn<float> load_gnn(const std::filesystem::path& path, const nn::GnnConfig& expected);

}  // namespace memplace::agents
