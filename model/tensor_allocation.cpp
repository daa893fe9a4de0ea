#include "model/tensor_allocation.hpp"

namespace memplace {

allocation::Problem tensor_allocation_problem(const Simulator& sim,
                                              std::span<const MemoryIndex> mapping,
                                              std::size_t memory) {
  sim.check_mapping(mapping);
  allocation::Problem problem;
  problem.capacity = sim.capacity(memory);
  problem.alignment = sim.hardware().memories[memory].alignment_bytes;
  for (std::size_t l = 0; l < sim.num_layers(); ++l)
    for (const TensorKind kind : {TensorKind::weight, TensorKind::activation}) {
      const std::size_t t = tensor_id(l, kind);
      if (mapping[t] != memory) continue;
      problem.buffers.push_back(allocation::Buffer{
          sim.workload().layers()[l].name + (kind == TensorKind::weight ? ".weight" : ".output"),
          static_cast<std::int64_t>(sim.live_first(t)),
          static_cast<std::int64_t>(sim.live_last(t)) + 1, sim.tensor_bytes(t)});
    }
  return problem;
}

}  // namespace memplace
