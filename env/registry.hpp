// The environment registry: every environment has an id and is made by name, as OpenSpiel's games
// are. The id grammar (docs/envs/README.md, "Ids"), one for C++, Python, Gymnasium and the CLI:
//
//   memplace/<kind>-<workload>-on-<chip>-cm<N>-v<R>   a workload (shipped, or a suite instance's)
//                                                      on a shipped chip
//   memplace/<kind>-cm<N>-v<R>                        any workload and chip, by option
//
// <kind> is single-step, sequential or malloc; cm<N> the cost model (0 pinned, 1 streaming,
// 2 addressed: what configs call env_version vN); v<R> the family's revision, bumped whenever what
// an agent sees or earns changes under the same cost model. The chip is always named, so a result
// names everything it was measured on in one string. The ids of before the grammar,
// memplace/<kind>[/<workload>[@<chip>]]-v<N> (N the cost model, nnpi without @), are still made,
// never listed.
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
#include "env/placement_context.hpp"
#include "model/inputs/hardware.hpp"
#include "model/model_spec.hpp"

namespace memplace {

// One kind of environment, at every cost model it has. Its options are the model spec's of the
// cost model (ModelSpec::option_specs) followed by its own.
struct EnvFamily {
  std::string kind;         // "single-step"
  std::string description;  // "the whole mapping in one step (EGRL)"
  std::vector<ModelVersion> versions = {ModelVersion::v0, ModelVersion::v1};  // its cost models
  // Its revision (the same under every cost model): -v<R> of its ids.
  int revision = 0;
  // Its own options, with defaults and allowed values.
  std::vector<OptionSpec> (*own_option_specs)() = nullptr;
  // Makes one on a context, from its own options resolved (every one present and valid); set by
  // family<EnvT, OptionsT>().
  std::unique_ptr<Env> (*make)(std::string id, std::shared_ptr<const PlacementContext> context,
                               const OptionMap& own_options) = nullptr;

  // Every option of this family at `version`: the model's, then its own.
  std::vector<OptionSpec> option_specs(ModelVersion version) const;
};

// A family of EnvT, whose envs are made as EnvT(id, context, OptionsT::from_options(own options)):
// a family registers in one expression in its own file,
//   EnvFamily my_family() { return family<MyEnv, MyOptions>({.kind = "my-kind", ...}); }
template <class EnvT, class OptionsT>
EnvFamily family(EnvFamily described) {
  described.make = [](std::string id, std::shared_ptr<const PlacementContext> context,
                      const OptionMap& own_options) -> std::unique_ptr<Env> {
    return std::make_unique<EnvT>(std::move(id), std::move(context),
                                  OptionsT::from_options(own_options));
  };
  return described;
}

// Every family, in the order `memplace list` shows them (env/env_families.cpp).
std::span<const EnvFamily> env_families();

struct EnvSpec {
  std::string id;
  std::string kind;        // the family's kind: "single-step", "sequential", "malloc"
  std::string version;     // the cost model as configs name it: "v0", "v1", "v2"
  std::string cost_model;  // as the id names it: "cm0", "cm1", "cm2"
  std::string revision;    // "v0"
  std::string workload;    // empty for the generic ids (the workload option chooses)
  std::string hardware;    // the chip the id names; empty for the generic ids
  std::string suite;       // the suite whose instance this is ("v1"), else empty
  std::string path_id;     // the same environment's id of before the grammar
  std::string description;
};

// Every listed id: per family and cost model, the generic id and one per shipped workload and
// chip; then every shipped suite's instances, per family at the suite's cost model (the
// malloc env at its own, v2). Made once.
const std::vector<EnvSpec>& registered_envs();
// The id of an environment by its parts (an empty workload: the generic id; an empty hardware:
// the default chip). InputError for a kind or cost model that does not exist.
std::string env_id_for(std::string_view kind, ModelVersion cost_model, std::string_view workload,
                       std::string_view hardware = {});
// The options an id accepts, with defaults and allowed values.
std::vector<OptionSpec> env_option_specs(std::string_view id);
// Makes an environment; throws InputError for an unknown id (listing similar ones) or a bad
// option (naming it and the allowed values).
std::unique_ptr<Env> make(std::string_view id, const OptionMap& options = {});

}  // namespace memplace
