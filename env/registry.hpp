// The environment registry: every environment has a versioned id and is made by name, as
// OpenSpiel's games are.
//
//   memplace/single-step/<workload>-v0   one per shipped workload
//   memplace/sequential/<workload>-v0
//   memplace/single-step-v0              any workload or hardware, given by option (name or path)
//   memplace/sequential-v0
//
// Versioning rule (docs/envs/README.md): the version is bumped whenever anything that changes
// what an agent sees or earns changes — dynamics, reward, observation features, episode order, or
// the shipped workload and hardware data an id refers to.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "env/env.hpp"
#include "env/env_options.hpp"

namespace memplace {

struct EnvSpec {
  std::string id;
  std::string kind;      // "single-step" or "sequential"
  std::string workload;  // empty for the generic ids (the workload option chooses)
  std::string description;
};

std::vector<EnvSpec> registered_envs();
// The options an id accepts, with defaults and allowed values.
std::vector<OptionSpec> env_option_specs(std::string_view id);
// Makes an environment; throws InputError for an unknown id (listing similar ones) or a bad
// option (naming it and the allowed values).
std::unique_ptr<Env> make(std::string_view id, const OptionMap& options = {});

}  // namespace memplace
