// The --dim option of the commands that read ONNX models (import, place): a symbolic input
// dimension's value, name=value.
#pragma once

#include <string>
#include <vector>

#include "workloads/tools/onnx_import.hpp"

namespace memplace::cli {

// "batch=8" into options.dims; InputError naming the option otherwise.
void parse_dims(const std::vector<std::string>& assignments, ImportOptions& options);

}  // namespace memplace::cli
