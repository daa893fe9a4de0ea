// The cost model (docs/cost-model.md): latency and validity of a mapping. What follows is the
// pinned dynamics (v0); the others (model/dynamics.hpp) build on the same compiled arrays.
//
// For layer l and memory M, bytes(l, M) = weight traffic of l if its weight is in M + output bytes
// of l if its output is in M + bytes of each input whose producer put its output in M (+ graph
// inputs, which live in the slowest memory). T_mem(l) combines bytes(l, M) / bandwidth(M) over
// memories by max (separate ports) or sum; t(l) = max(T_comp(l), T_mem(l)) + overhead; latency is
// the sum over layers. A mapping is valid when, in every memory, the pinned weights plus the
// activations live at any schedule step fit the capacity.
//
// The Simulator compiles a workload and a hardware model into flat arrays of per-tensor transfer
// times (integer femtoseconds), so an evaluation is a few passes over contiguous memory, and
// hands the evaluation to its dynamics (model/dynamics/).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/dynamics.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/inputs/workload.hpp"

namespace memplace {

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
  const DynamicsModel& dynamics_model() const { return *model_; }
  // What the dynamics compiled for this simulator (model/dynamics/ reads its own kind).
  const DynamicsPlan& dynamics_plan() const { return *plan_; }
  // Whether the evaluation kernels stay scalar (SimulatorOptions::scalar_kernel).
  bool scalar_kernel() const { return scalar_kernel_; }
  std::uint64_t allocation_placements() const { return allocation_placements_; }
  std::size_t num_layers() const { return num_layers_; }
  std::size_t num_tensors() const { return 2 * num_layers_; }
  std::size_t num_memories() const { return num_memories_; }
  MemoryIndex slowest() const { return static_cast<MemoryIndex>(num_memories_ - 1); }

  Evaluation evaluate(std::span<const MemoryIndex> mapping) const;
  void evaluate(std::span<const MemoryIndex> mapping, Evaluation& out) const;
  // Under a dynamics that gives addresses (the addressed one): also where everything went
  // (model/dynamics/addressed.hpp), or with the tensors at the given offsets (one per tensor,
  // -1 in the slowest memory; a valid packing of every memory, as layout_faults checks) instead
  // of the allocator's. std::invalid_argument under any other dynamics or for a bad mapping.
  void evaluate(std::span<const MemoryIndex> mapping, Evaluation& out,
                AddressedLayout& layout) const;
  void evaluate_at_offsets(std::span<const MemoryIndex> mapping,
                           std::span<const std::int64_t> tensor_offsets, Evaluation& out) const;

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
  const DynamicsModel* model_;                // the registry's, never null
  std::shared_ptr<const DynamicsPlan> plan_;  // shared by copies: it never changes
};

}  // namespace memplace
