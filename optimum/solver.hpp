// The exact optimum of the cost model: the MIP of optimum/formulation.hpp solved by COIN-OR
// CBC (branch and cut over Clp), warm-started from the compiler mapping (docs/optimum.md). Under
// the streaming dynamics, the MIP of its relaxation (optimum/streaming_bound.hpp): a bound and
// candidate mappings, not a proven optimum (Solution::exact).
//
// The answer is re-scored by the simulator: latency_fs is Simulator::evaluate's, never the
// solver's own objective (which is kept beside it to show that the two agree).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"

namespace memplace::optimum {

struct SolverOptions {
  double time_limit_s = 600;  // wall-clock seconds, > 0
  // Stop once (incumbent − bound) / incumbent ≤ this; 0 proves optimality (to CBC's tolerances).
  double relative_gap = 0;
  // CBC's threads; above 1 in its deterministic parallel mode, so a proven optimum has the same
  // latency whatever the thread count.
  int threads = 1;
  // The warm start; the compiler mapping when empty.
  Mapping start;

  // Throws std::invalid_argument naming the option.
  void validate() const;
};

enum class Status : std::uint8_t {
  optimal,     // the search closed: no mapping is faster (to CBC's tolerances)
  gap_limit,   // stopped within relative_gap of the bound
  time_limit,  // stopped by the time limit: the best mapping found and a certified bound
  stopped,     // stopped by the caller (the progress callback returned false)
  infeasible,  // no valid mapping exists
};
std::string_view status_name(Status s);
std::optional<Status> status_from_name(std::string_view name);

struct Progress {
  double seconds = 0;
  std::int64_t nodes = 0;
  std::optional<double> incumbent_fs;  // the best mapping so far, by the solver's objective
  double bound_fs = 0;                 // no mapping is faster than this
  double gap() const;                  // (incumbent − bound) / incumbent; 1 without incumbent
};

struct Solution {
  Status status = Status::infeasible;
  // Pinned dynamics: the MIP is the cost model, so `optimal` proves the mapping optimal.
  // Streaming: the MIP is optimum/streaming_bound.hpp's relaxation with binary placements; its
  // bound holds for every mapping's streaming latency, but its optimum is the relaxation's, so the
  // mapping (re-scored under streaming) is a candidate, not a proven optimum.
  bool exact = true;
  std::optional<Mapping> mapping;  // the best valid mapping found
  TimeFs latency_fs = 0;           // its latency, re-scored by the simulator
  TimeFs bound_fs = 0;             // a lower bound on every valid mapping's latency (≤ latency)
  double solver_objective_fs = 0;  // what CBC believed latency_fs to be
  double seconds = 0;              // wall clock
  std::int64_t nodes = 0;          // branch-and-bound nodes
  // (latency − bound) / latency: 0 when proven optimal.
  double gap() const;
};

// `progress` is called at most about once a second and at every new incumbent; returning false
// stops the search (status `stopped`). Throws std::invalid_argument for bad options and
// std::runtime_error if CBC fails.
Solution solve(const Simulator& sim, const SolverOptions& options,
               const std::function<bool(const Progress&)>& progress = {});

// "CBC 2.10.8", for certificates.
std::string solver_version();

}  // namespace memplace::optimum
