// Toy workloads and hardware with numbers chosen so answers can be computed by hand.
//
// Hardware "toy": FAST holds 1000 B at 1 GB/s (1 byte = 1 ns), SLOW holds 1 MB at 100 MB/s
// (1 byte = 10 ns); 1 MAC = 1 ns, 1 vector op = 1 ns, 5 ns overhead per layer.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/inputs/workload.hpp"
#include "model/simulator.hpp"

namespace memplace::toy {

constexpr TimeFs ns(std::int64_t n) {
  return n * 1'000'000;
}

// The toy hardware's memories by index.
constexpr MemoryIndex F = 0;  // FAST
constexpr MemoryIndex S = 1;  // SLOW

// Cost model v1: the streaming dynamics, with each hardware file's own memory-time rule.
inline const SimulatorOptions kStreaming{.memory_time = std::nullopt,
                                         .dynamics = Dynamics::streaming};

Hardware hardware(MemoryTimeCombine combine = MemoryTimeCombine::max);
// The same with `memories` levels (1 to 8): FAST, MID (1 byte = 5 ns, 2000 B), SLOW, ARCHIVE,
// then ever slower and larger levels.
Hardware hardware_levels(std::size_t memories);

struct LayerSpec {
  std::string name;
  std::int64_t macs = 0;
  std::int64_t weight = 0;
  std::int64_t output = 0;
  std::vector<std::pair<std::string, std::int64_t>> inputs;  // producer name, bytes
  std::int64_t external = 0;
};
Workload workload(const std::string& name, const std::vector<LayerSpec>& specs);

// A -> B -> C.
Workload chain();
// A -> B, A -> C, B -> D, C -> D.
Workload diamond();
// A -> B -> C with a skip A -> C.
Workload residual();
// One layer whose 5000-byte weight fits in no fast memory.
Workload huge_weight();
// Two 600-byte activations that are live at the same step (each fits FAST alone, not both).
Workload tight();

// A random DAG in schedule order with random sizes (for property tests).
Workload random_workload(std::uint64_t seed, std::size_t layers);
// A mapping with every tensor in a uniformly drawn memory.
Mapping random_mapping(std::mt19937_64& rng, std::size_t tensors, std::size_t memories);

}  // namespace memplace::toy
