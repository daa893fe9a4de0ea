// The environment registry: every environment has a versioned id and is made by name, as
// OpenSpiel's games are.
//
//   memplace/single-step/<workload>-v0             one per shipped workload, on nnpi
//   memplace/single-step/<workload>@<hardware>-v0  one per shipped workload and other hardware
//   memplace/sequential/<workload>[@<hardware>]-v0
//   memplace/single-step-v0                        any workload or hardware, by option
//   memplace/sequential-v0
//
// The hardware is in the id (not only an option) so that a result names everything it was
// measured on in one string; the default hardware (nnpi) keeps the short ids, which it had before
// the other models existed.
//
// Versioning rule (docs/envs/README.md): the version is bumped whenever anything that changes
// what an agent sees or earns changes — dynamics, reward, observation features, episode order, or
// the shipped workload and hardware data an id refers to.
//
// Each kind of environment is an EnvFamily, defined in its own file beside the env and listed once
// in env_families() (env/env_families.cpp): a new environment is one file plus one line there.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "env/env.hpp"
#include "env/env_options.hpp"
#include "env/model/hardware.hpp"
#include "env/placement_context.hpp"

namespace memplace {

// One kind of environment at one version: its ids are memplace/<kind>-<version> (any workload, by
// option) and memplace/<kind>/<workload>-<version> for every shipped workload.
struct EnvFamily {
  std::string kind;         // "single-step"
  std::string version;      // "v0"
  std::string description;  // "the whole mapping in one step (EGRL)"
  // Every option it accepts (the common ones included), with defaults and allowed values.
  std::vector<OptionSpec> (*option_specs)();
  // Makes one from resolved options (every option present and valid).
  std::unique_ptr<Env> (*make)(std::string id, std::shared_ptr<const PlacementContext> context,
                               const OptionMap& resolved);
};

// Every family, in the order `memplace list` shows them.
std::span<const EnvFamily> env_families();

struct EnvSpec {
  std::string id;
  std::string kind;      // the family's kind: "single-step", "sequential"
  std::string workload;  // empty for the generic ids (the workload option chooses)
  std::string hardware;  // empty unless the id fixes the hardware (<workload>@<hardware>)
  std::string description;
};

std::vector<EnvSpec> registered_envs();
// The options an id accepts, with defaults and allowed values.
std::vector<OptionSpec> env_option_specs(std::string_view id);
// Makes an environment; throws InputError for an unknown id (listing similar ones) or a bad
// option (naming it and the allowed values).
std::unique_ptr<Env> make(std::string_view id, const OptionMap& options = {});

}  // namespace memplace
