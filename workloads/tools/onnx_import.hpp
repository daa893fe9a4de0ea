// Imports an ONNX model as a memplace workload (docs/workloads.md: fusion rules, cost formulas).
//
// Only shapes are read: ONNX shape inference fills in every tensor's shape and initializers give
// the weight sizes, so a model with its weight data stripped imports exactly like the full one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/inputs/workload.hpp"
#include "workloads/tools/fusion_preset.hpp"

namespace memplace {

struct ImportOptions {
  int element_bytes = 1;  // bytes per element of every tensor (int8 inference: 1)
  FusionPreset fusion = FusionPreset::standard;
  std::string name;         // workload name; empty: the file's stem
  std::string description;  // empty: "<stem> imported from ONNX"
  std::string source;       // empty: the file name, the preset and the element size
  // Values of the graph inputs' symbolic dims by name ("batch" -> 8, "sequence" -> 512) before
  // shape inference; `dynamic_dim` for every dim not named (0 leaves them symbolic, and a layer
  // that needs such a shape is an error).
  std::map<std::string, std::int64_t, std::less<>> dims;
  std::int64_t dynamic_dim = 0;
  // Graph inputs that are data the model reads (a decode step's KV cache: "past_*"): each
  // becomes a weight of the layer that reads it. `*` matches any run of characters.
  std::vector<std::string> static_inputs;
};

// Throws InputError ("<file>: node '<name>' (<op>): <problem>") for a file that is not a usable
// ONNX model: unreadable, empty, truncated, garbage, unsupported op, unknown shapes.
Workload import_onnx(const std::filesystem::path& model, const ImportOptions& options = {});

// A model given to place or train on, as a workload name or file: an ONNX model (a `.onnx` file)
// is imported with `options` and saved (atomically) as `folder`/<its name>.yaml, whose path is
// returned; a shipped name or a workload YAML file is returned as it is.
std::string workload_from_model(const std::string& model, const ImportOptions& options,
                                const std::filesystem::path& folder);

}  // namespace memplace
