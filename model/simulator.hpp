// The cost model (docs/cost-model.md): latency and validity of a mapping. What follows is the
// pinned dynamics (v0); the streaming dynamics (v1) builds on it (model/streaming.hpp).
//
// For layer l and memory M, bytes(l, M) = weight traffic of l if its weight is in M + output bytes
// of l if its output is in M + bytes of each input whose producer put its output in M (+ graph
// inputs, which live in the slowest memory). T_mem(l) combines bytes(l, M) / bandwidth(M) over
// memories by max (separate ports) or sum; t(l) = max(T_comp(l), T_mem(l)) + overhead; latency is
// the sum over layers. A mapping is valid when, in every memory, the pinned weights plus the
// activations live at any schedule step fit the capacity.
//
// The Simulator compiles a workload and a hardware model into flat arrays of per-tensor transfer
// times (integer femtoseconds), so an evaluation is a few passes over contiguous memory.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/evaluation_kernels.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/inputs/workload.hpp"
#include "model/streaming.hpp"

namespace memplace {

// What happens in time (docs/cost-model.md): every tensor read from its home while each layer runs
// alone (pinned, cost model v0), or a DMA prefetching reads into free faster memory in the idle
// time of earlier layers (streaming, v1); the mapping and its validity are the same under both.
// The addressed dynamics (v2) is v1 where on-chip tensors and staging buffers also need addresses:
// a mapping whose tensors the allocator cannot pack is invalid, and a buffer with no free range
// delays or drops its copy.
enum class Dynamics : std::uint8_t { pinned, streaming, addressed };
// Every dynamics, in the order of the cost models that brought them (v0, v1, v2): the one list
// of them (names, choices of the CLI and of the model spec's options).
// (A dynamics' value is its index here.)
inline constexpr std::array kDynamics = {Dynamics::pinned, Dynamics::streaming,
                                         Dynamics::addressed};
static_assert(kDynamics[static_cast<std::size_t>(Dynamics::addressed)] == Dynamics::addressed);
// Whether the dynamics runs v1's DMA (streaming and addressed).
inline bool has_dma(Dynamics d) {
  return d != Dynamics::pinned;
}
std::string_view dynamics_name(Dynamics d);
std::optional<Dynamics> dynamics_from_name(std::string_view name);
// "pinned", "streaming", "addressed": the names of kDynamics, in its order.
std::vector<std::string> dynamics_names();

struct SimulatorOptions {
  // Overrides the hardware model's memory_time when set.
  std::optional<MemoryTimeCombine> memory_time;
  Dynamics dynamics = Dynamics::pinned;
  // The addressed dynamics' allocator: the exact search's placement budget per memory after the
  // greedy packings fail (0: the greedy packings alone). A budget, not a time limit, so that
  // validity is the same on every machine.
  std::uint64_t allocation_placements = 20'000;
  // Use the portable scalar evaluation kernel even where the vector one is available (tests
  // compare the two; results are identical either way).
  bool scalar_kernel = false;
};

// The result of a full evaluation. A value type; reuse one object across calls to avoid
// allocating (Simulator::evaluate(mapping, out)).
struct Evaluation {
  TimeFs latency_fs = 0;
  bool valid = false;
  std::vector<std::int64_t> peak_bytes;      // per memory: pinned weights + peak live activations
  std::vector<std::int64_t> overflow_bytes;  // per memory: max(0, peak - capacity)
  std::vector<TimeFs> layer_fs;              // per layer: t(l)

  double latency_s() const { return to_seconds(latency_fs); }
  std::int64_t total_overflow_bytes() const;
};

class Simulator {
 public:
  Simulator(Workload workload, Hardware hardware, SimulatorOptions options = {});

  const Workload& workload() const { return workload_; }
  const Hardware& hardware() const { return hardware_; }
  MemoryTimeCombine memory_time() const { return combine_; }
  Dynamics dynamics() const { return dynamics_; }
  std::uint64_t allocation_placements() const { return allocation_placements_; }
  std::size_t num_layers() const { return num_layers_; }
  std::size_t num_tensors() const { return 2 * num_layers_; }
  std::size_t num_memories() const { return num_memories_; }
  MemoryIndex slowest() const { return static_cast<MemoryIndex>(num_memories_ - 1); }

  Evaluation evaluate(std::span<const MemoryIndex> mapping) const;
  void evaluate(std::span<const MemoryIndex> mapping, Evaluation& out) const;
  // The pinned evaluation whatever the dynamics (the mapping unchecked); with `start`, also what
  // the streaming evaluation starts from (evaluation_kernels.hpp).
  void evaluate_pinned(std::span<const MemoryIndex> mapping, Evaluation& out,
                       const detail::StreamingStart* start = nullptr) const;

  // The streaming and addressed dynamics' static DMA plan (empty under the pinned dynamics).
  const detail::StreamingPlan& streaming_plan() const { return streaming_plan_; }

  // Throws std::invalid_argument naming the problem: wrong length, memory index out of range.
  void check_mapping(std::span<const MemoryIndex> mapping) const;

  // --- The compiled model, for evaluators and agents. Tensor ids as in
  // model/inputs/mapping.hpp. ---
  std::int64_t capacity(std::size_t m) const { return capacity_[m]; }
  std::int64_t tensor_bytes(std::size_t tensor) const { return tensor_bytes_[tensor]; }
  // Schedule steps over which a tensor occupies memory (inclusive); weights: the whole schedule.
  std::size_t live_first(std::size_t tensor) const;
  std::size_t live_last(std::size_t tensor) const;
  TimeFs compute_fs(std::size_t layer) const { return compute_fs_[layer]; }
  TimeFs overhead_fs() const { return overhead_fs_; }
  // Time for layer l to move its own weight / output / graph-input bytes to or from memory m.
  TimeFs weight_fs(std::size_t layer, std::size_t m) const {
    return weight_fs_[layer * num_memories_ + m];
  }
  TimeFs output_fs(std::size_t layer, std::size_t m) const {
    return output_fs_[layer * num_memories_ + m];
  }
  TimeFs external_fs(std::size_t layer) const { return external_fs_[layer]; }

  // Data dependencies with parallel edges merged: one entry per (producer, consumer) pair, with
  // the time the consumer spends reading the producer's output from each memory.
  struct Dependency {
    std::size_t layer;  // the producer (for in_edges) or the consumer (for out_edges)
    std::size_t index;  // index into read_fs
  };
  std::span<const Dependency> in_edges(std::size_t layer) const;
  std::span<const Dependency> out_edges(std::size_t layer) const;
  TimeFs read_fs(std::size_t dependency, std::size_t m) const {
    return read_fs_[dependency * num_memories_ + m];
  }

  // Adds layer l's transfer time in each memory under `mapping` to acc (num_memories() entries):
  // its weight, its output, its graph inputs (slowest memory) and each input it reads.
  void add_transfer_fs(std::size_t layer, std::span<const MemoryIndex> mapping, TimeFs* acc) const {
    const MemoryIndex w = mapping[tensor_id(layer, TensorKind::weight)];
    const MemoryIndex o = mapping[tensor_id(layer, TensorKind::activation)];
    acc[num_memories_ - 1] += external_fs(layer);
    acc[w] += weight_fs(layer, w);
    acc[o] += output_fs(layer, o);
    for (const Dependency& d : in_edges(layer)) {
      const MemoryIndex p = mapping[tensor_id(d.layer, TensorKind::activation)];
      acc[p] += read_fs(d.index, p);
    }
  }

  // t(l) given the per-memory transfer times of the layer (acc has num_memories() entries).
  TimeFs layer_time(std::size_t layer, const TimeFs* acc) const {
    TimeFs mem = 0;
    if (combine_ == MemoryTimeCombine::max) {
      for (std::size_t m = 0; m < num_memories_; ++m)
        mem = std::max(mem, acc[m]);
    } else {
      for (std::size_t m = 0; m < num_memories_; ++m)
        mem += acc[m];
    }
    return std::max(compute_fs_[layer], mem) + overhead_fs_;
  }

 private:
  Workload workload_;
  Hardware hardware_;
  MemoryTimeCombine combine_;
  Dynamics dynamics_;
  std::uint64_t allocation_placements_;
  std::size_t num_layers_;
  std::size_t num_memories_;
  TimeFs overhead_fs_;
  std::vector<std::int64_t> capacity_;
  std::vector<std::int64_t> tensor_bytes_;  // per tensor: footprint
  std::vector<TimeFs> compute_fs_;          // per layer
  std::vector<TimeFs> weight_fs_;           // per layer x memory
  std::vector<TimeFs> output_fs_;           // per layer x memory
  std::vector<TimeFs> external_fs_;         // per layer (from the slowest memory)
  std::vector<std::size_t> in_offsets_;     // CSR by consumer over in_
  std::vector<Dependency> in_;
  std::vector<std::size_t> out_offsets_;  // CSR by producer over out_
  std::vector<Dependency> out_;
  std::vector<TimeFs> read_fs_;  // per dependency x memory

  bool scalar_kernel_;
  detail::EvaluationPlan plan_;
  detail::StreamingPlan streaming_plan_;  // built for the dynamics with a DMA only
};

}  // namespace memplace
