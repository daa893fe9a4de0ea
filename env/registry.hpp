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
// in env_families() (env/env_families.cpp): a new environment is one file plus one line there,
// and the shared conformance test checks it (docs/envs/README.md, "Adding an environment").
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/options.hpp"
#include "env/env.hpp"
#include "env/model/inputs/hardware.hpp"
#include "env/model/model_spec.hpp"
#include "env/placement_context.hpp"

namespace memplace {

// One kind of environment, at every version it has: its ids are memplace/<kind>-<version> (any
// workload, by option) and memplace/<kind>/<workload>[@<hardware>]-<version> for every shipped
// workload and hardware model. Its options are the model spec's of the version
// (ModelSpec::option_specs) followed by its own.
struct EnvFamily {
  std::string kind;         // "single-step"
  std::string description;  // "the whole mapping in one step (EGRL)"
  std::vector<ModelVersion> versions = {ModelVersion::v0, ModelVersion::v1};
  // Its own options, with defaults and allowed values.
  std::vector<OptionSpec> (*own_option_specs)();
  // Makes one on a context, from its own options resolved (every one present and valid).
  std::unique_ptr<Env> (*make)(std::string id, std::shared_ptr<const PlacementContext> context,
                               const OptionMap& own_options);

  // Every option of this family at `version`: the model's, then its own.
  std::vector<OptionSpec> option_specs(ModelVersion version) const;
};

// Every family, in the order `memplace list` shows them (env/env_families.cpp).
std::span<const EnvFamily> env_families();

struct EnvSpec {
  std::string id;
  std::string kind;      // the family's kind: "single-step", "sequential"
  std::string version;   // "v0", "v1"
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
