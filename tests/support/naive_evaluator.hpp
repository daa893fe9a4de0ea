// A deliberately plain transcription of the cost model (docs/cost-model.md), independent of the
// Simulator's compiled arrays: per layer, per memory, per step, no cleverness. Tests compare the
// fast evaluators against it.
#pragma once

#include <algorithm>
#include <vector>

#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/inputs/workload.hpp"

namespace memplace::naive {

struct Result {
  TimeFs latency_fs = 0;
  std::vector<std::int64_t> peak_bytes;
  std::vector<std::size_t> peak_step;  // first step where live activations peak
  bool valid = true;
};

inline Result evaluate(const Workload& w, const Hardware& hw, const Mapping& mapping) {
  const std::size_t n = w.size();
  const std::size_t mems = hw.memories.size();
  Result r;
  for (std::size_t l = 0; l < n; ++l) {
    const Layer& layer = w.layer(l);
    std::vector<TimeFs> mem_time(mems, 0);
    auto charge = [&](std::size_t m, std::int64_t bytes) {
      mem_time[m] += duration_fs(bytes, hw.memories[m].bandwidth_bytes_per_s);
    };
    charge(mapping[2 * l], layer.weight_traffic_bytes);
    charge(mapping[2 * l + 1], layer.output_bytes);
    charge(mems - 1, layer.external_input_bytes);
    // Parallel edges from one producer are one read of their summed bytes.
    std::vector<std::int64_t> from(n, 0);
    for (const InputEdge& e : layer.inputs)
      from[e.producer] += e.bytes;
    for (std::size_t p = 0; p < n; ++p) {
      if (from[p] != 0) charge(mapping[2 * p + 1], from[p]);
    }
    TimeFs mem = 0;
    for (TimeFs t : mem_time) {
      mem = hw.memory_time == MemoryTimeCombine::max ? std::max(mem, t) : mem + t;
    }
    const TimeFs compute =
        duration_fs(layer.macs, hw.mac_rate()) + duration_fs(layer.vector_ops, hw.vector_ops_per_s);
    r.latency_fs +=
        std::max(compute, mem) + static_cast<TimeFs>(std::ceil(hw.layer_overhead_s * kFsPerSecond));
  }
  r.peak_bytes.assign(mems, 0);
  r.peak_step.assign(mems, 0);
  for (std::size_t m = 0; m < mems; ++m) {
    std::int64_t pinned = 0;
    for (std::size_t l = 0; l < n; ++l) {
      if (mapping[2 * l] == m) pinned += w.layer(l).weight_bytes;
    }
    std::int64_t peak_live = 0;
    for (std::size_t s = 0; s < n; ++s) {
      std::int64_t live = 0;
      for (std::size_t l = 0; l <= s; ++l) {
        if (mapping[2 * l + 1] == m && w.last_use(l) >= s) live += w.layer(l).output_bytes;
      }
      if (live > peak_live) {
        peak_live = live;
        r.peak_step[m] = s;
      }
    }
    r.peak_bytes[m] = pinned + peak_live;
    r.valid = r.valid && r.peak_bytes[m] <= hw.memories[m].capacity_bytes;
  }
  return r;
}

}  // namespace memplace::naive
