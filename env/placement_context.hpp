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
  // How the workload and hardware were named when made (a shipped name or a path), so that an
  // environment's options() can make it again.
  std::string workload_spec;
  std::string hardware_spec;

  // workload, hardware and memory_time as options, so that make(id, options()) makes it again.
  OptionMap common_options() const {
    return {{"workload", workload_spec},
            {"hardware", hardware_spec},
            {"memory_time", std::string(combine_name(sim->memory_time()))}};
  }

  double speedup(TimeFs latency_fs) const {
    return static_cast<double>(compiler_fs) / static_cast<double>(latency_fs);
  }
};

std::shared_ptr<const PlacementContext> make_placement_context(
    std::shared_ptr<const Simulator> sim);
// How many contexts this process has made (each builds a simulator and evaluates the references):
// tests check that a run makes one.
std::size_t placement_contexts_made();
// From resolved options (workload, hardware, memory_time).
std::shared_ptr<const PlacementContext> make_placement_context(const OptionMap& options);

}  // namespace memplace
