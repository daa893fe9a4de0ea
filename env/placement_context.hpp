// What every placement environment of one model spec shares, built once: the simulator, the
// static graph of the observation, and the reference latencies rewards use.
#pragma once

#include <memory>

#include "env/env.hpp"
#include "env/observation.hpp"
#include "model/model_spec.hpp"
#include "model/simulator.hpp"

namespace memplace {

struct PlacementContext {
  std::shared_ptr<const Simulator> sim;
  std::shared_ptr<const StaticGraph> graph;
  TimeFs compiler_fs = 0;     // the speedup reference
  TimeFs all_slowest_fs = 0;  // the slowest valid latency any mapping can have
  // What it was made from (workload and hardware as named: a shipped name or a path), and the
  // version whose options and observation the environments on it have.
  ModelSpec model;
  ModelVersion version = ModelVersion::v0;

  // The model's options under this version: make(id, model_options()) names the same model.
  OptionMap model_options() const { return model.to_options(version); }
  // An env's options(): the model's, then the family's own.
  OptionMap options_with(OptionMap own) const {
    OptionMap all = model_options();
    all.merge(own);
    return all;
  }
  // The -v1 observation's extra features (docs/envs/README.md).
  bool streaming_features() const { return version != ModelVersion::v0; }

  double speedup(TimeFs latency_fs) const {
    return static_cast<double>(compiler_fs) / static_cast<double>(latency_fs);
  }
};

// Builds the simulator of `model` and everything above; InputError if it does not load or
// `version` cannot express it.
std::shared_ptr<const PlacementContext> make_placement_context(const ModelSpec& model,
                                                               ModelVersion version);
// Around a simulator already built (tests, scripts): its model spec names the workload and the
// hardware by their names.
std::shared_ptr<const PlacementContext> make_placement_context(
    std::shared_ptr<const Simulator> sim, ModelVersion version = ModelVersion::v0);
// How many contexts this process has made (each builds a simulator and evaluates the references):
// tests check that a run makes one.
std::size_t placement_contexts_made();

}  // namespace memplace
