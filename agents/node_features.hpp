// The node features a policy reads, computed on the agent's side (the env's observation never
// changes): `observation`, the env's columns as they are, or `chip-relative`, those columns and
// eleven more that put each layer's tensors against the chip they are placed on — bytes against
// the capacities, the time the fastest memory saves against the compute, lifetimes against the
// schedule's time (docs/place.md, "What a policy reads"). The absolute columns tell a policy what
// a tensor is; the relative ones say what placing it is worth here, which is what carries from
// one graph to the next. A policy file records which set it read (PolicySpec::features).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "env/observation.hpp"
#include "model/simulator.hpp"

namespace memplace::agents {

enum class NodeFeatures { observation, chip_relative };
inline constexpr NodeFeatures kNodeFeatureSets[] = {NodeFeatures::observation,
                                                    NodeFeatures::chip_relative};

std::string_view name_of(NodeFeatures features);
// InputError naming the value and the sets.
NodeFeatures parse_node_features(std::string_view name);

// The names of the columns chip-relative adds, in order (docs/place.md lists what each is).
std::span<const std::string_view> chip_relative_feature_names();

// `observation` with its static columns extended for `features` (the same observation for
// `observation`); `sim` is the one the observation was made from.
Observation with_node_features(const Observation& observation, const Simulator& sim,
                               NodeFeatures features);

}  // namespace memplace::agents
