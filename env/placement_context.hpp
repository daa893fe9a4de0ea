// What every placement environment of one (workload, hardware) pair shares, built once: the
// simulator, the static graph of the observation, and the reference latencies rewards use.
#pragma once

#include <memory>

#include "env/env.hpp"
#include "env/model/simulator.hpp"
#include "env/observation.hpp"

namespace memplace {

struct PlacementContext {
  std::shared_ptr<const Simulator> sim;
  std::shared_ptr<const StaticGraph> graph;
  TimeFs compiler_fs = 0;     // the speedup reference
  TimeFs all_slowest_fs = 0;  // the slowest valid latency any mapping can have
  // The options it was made from (workload and hardware as named: a shipped name or a path;
  // memory_time; for the -v1 environments dynamics and lookahead), so that make(id, options())
  // makes it again.
  OptionMap model_options;

  OptionMap common_options() const { return model_options; }

  double speedup(TimeFs latency_fs) const {
    return static_cast<double>(compiler_fs) / static_cast<double>(latency_fs);
  }
};

std::shared_ptr<const PlacementContext> make_placement_context(
    std::shared_ptr<const Simulator> sim);
// How many contexts this process has made (each builds a simulator and evaluates the references):
// tests check that a run makes one.
std::size_t placement_contexts_made();
// From resolved options (workload, hardware, memory_time, and for the -v1 environments dynamics
// and lookahead, whose presence also adds the streaming observation features). Throws InputError
// for a lookahead that is neither 'hardware' nor a non-negative integer.
std::shared_ptr<const PlacementContext> make_placement_context(const OptionMap& options);

}  // namespace memplace
