// What there is to win on one model (a workload on a hardware model under one memory-time rule and
// dynamics), as latencies: every point memplace measures a result against, found in one place.
// `memplace references` and `info`, the hardware summary (docs/hardware.md) and the table's
// reference rows only format it; the speedups are over `compiler_fs`.
#pragma once

#include <optional>

#include "model/simulator.hpp"
#include "optimum/best_known.hpp"
#include "optimum/certificate.hpp"

namespace memplace::optimum {

struct Headroom {
  TimeFs all_slowest_fs = 0;  // every tensor in the slowest memory
  TimeFs compiler_fs = 0;     // the compiler mapping (the streaming-aware one under streaming)
  // Under streaming: the pinned dynamics' compiler mapping, scored under streaming.
  std::optional<TimeFs> pinned_compiler_fs;
  // Every tensor in the fastest memory, rectified as the env's invalid=rectify does; none if
  // even the slowest memory overflows.
  std::optional<TimeFs> all_fast_rectified_fs;
  // The shipped optimum certificate of exactly this model (the pinned dynamics' only).
  std::optional<Certificate> certificate;
  // The fastest valid shipped mapping (certificates and best-known files), re-scored here.
  std::optional<KnownMapping> best_known;
  TimeFs capacity_free_bound_fs = 0;
  // Under streaming: the slowest port's and compute's bounds, and the capacity-aware LP's.
  std::optional<TimeFs> slowest_port_bound_fs;
  std::optional<TimeFs> compute_bound_fs;
  std::optional<TimeFs> capacity_aware_bound_fs;
  // The tightest of them: no valid mapping is faster. Pinned: the certificate's bound (the
  // optimum, when proven), else the capacity-free bound; streaming: the largest bound.
  TimeFs bound_fs = 0;

  double speedup(TimeFs latency_fs) const {
    return static_cast<double>(compiler_fs) / static_cast<double>(latency_fs);
  }
};

// Under streaming this solves the capacity-aware LP (about 0.1 s on bert-base).
Headroom headroom(const Simulator& sim);

}  // namespace memplace::optimum
