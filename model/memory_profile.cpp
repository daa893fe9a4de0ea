#include "model/memory_profile.hpp"

namespace memplace {

MemoryProfile memory_profile(const Simulator& sim, std::span<const MemoryIndex> mapping) {
  sim.check_mapping(mapping);
  const std::size_t steps = sim.num_layers();
  // Per memory, a difference array over the steps: +bytes where a tensor's live range starts,
  // -bytes after it ends.
  std::vector<std::vector<std::int64_t>> delta(sim.num_memories(),
                                               std::vector<std::int64_t>(steps + 1, 0));
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    std::vector<std::int64_t>& d = delta[mapping[t]];
    d[sim.live_first(t)] += sim.tensor_bytes(t);
    d[sim.live_last(t) + 1] -= sim.tensor_bytes(t);
  }
  MemoryProfile profile;
  for (const std::vector<std::int64_t>& d : delta) {
    std::vector<std::int64_t>& bytes = profile.bytes.emplace_back(steps, 0);
    std::int64_t live = 0;
    for (std::size_t s = 0; s < steps; ++s)
      bytes[s] = live += d[s];
  }
  return profile;
}

}  // namespace memplace
