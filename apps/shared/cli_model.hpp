// The command-line options that name a cost model (--hardware, --memory-time, --dynamics,
// --lookahead), read into a ModelSpec (model/model_spec.hpp): the commands that build a
// simulator from their arguments share them.
#pragma once

#include <CLI/CLI.hpp>

#include "model/model_spec.hpp"

namespace memplace::cli {

// Adds the options to `cmd`, writing into `model` (which must outlive the parse), and
// --dynamics and --lookahead unless the command models the pinned dynamics only (memplace
// optimum). The workload is each command's own argument.
void add_model_options(CLI::App& cmd, ModelSpec& model, bool with_dynamics = true);

}  // namespace memplace::cli
