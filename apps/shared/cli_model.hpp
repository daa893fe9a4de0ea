// The command-line options that name a cost model (--hardware, --memory-time, --dynamics,
// --lookahead), read into a ModelSpec (model/model_spec.hpp): every command that builds a
// simulator from its arguments reads them here, either into a ModelSpec with its defaults shown
// or as overrides of a model recorded elsewhere (memplace evaluate: the mapping file's).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "model/model_spec.hpp"

namespace memplace::cli {

// Adds the options to `cmd`, writing into `model` (which must outlive the parse), and
// --dynamics and --lookahead unless the command models the pinned dynamics only (memplace
// optimum). The workload is each command's own argument.
void add_model_options(CLI::App& cmd, ModelSpec& model, bool with_dynamics = true);
// --hardware alone (the commands whose other model options come as -o name=value).
void add_hardware_option(CLI::App& cmd, ModelSpec& model);

// --memory-time, --dynamics and --lookahead as overrides: each unset unless given.
struct ModelOverrides {
  std::optional<MemoryTimeCombine> memory_time;
  std::optional<Dynamics> dynamics;
  std::optional<std::int64_t> lookahead;

  void apply_to(ModelSpec& model) const;
};
// `unset` says in each option's help what an option not given means ("the file's").
void add_model_override_options(CLI::App& cmd, ModelOverrides& overrides, const std::string& unset);

}  // namespace memplace::cli
