// A GNN saved to disk: its config and parameters in one parameter file (agents/nn/serialize.hpp:
// versioned, checksummed, written atomically). The agents' checkpoints add their optimiser state
// as further sets of the same file.
#pragma once

#include <filesystem>

#include "agents/nn/gnn.hpp"

namespace memplace::nn {

// The file's config text: "memplace-gnn " + GnnConfig::to_string().
std::string gnn_file_config(const GnnConfig& config);
// Reads the config back; throws std::runtime_error naming `source` if it is not a GNN's.
GnnConfig parse_gnn_file_config(std::string_view text, std::string_view source);

void save_gnn(const std::filesystem::path& path, const Gnn<float>& model);
// Throws std::runtime_error naming the file on a missing, corrupt or foreign file.
Gnn<float> load_gnn(const std::filesystem::path& path);
// As above, and the file must hold a model of exactly this config (the message names both).
Gnn<float> load_gnn(const std::filesystem::path& path, const GnnConfig& expected);

}  // namespace memplace::nn
