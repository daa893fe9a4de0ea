// A hardware model: the memory hierarchy and the compute rates of an inference accelerator.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memplace {

// How a layer's transfers to different memories combine into its memory time (docs/cost-model.md).
enum class MemoryTimeCombine : std::uint8_t {
  max,  // separate ports: transfers to different memories overlap (default)
  sum,  // one shared path: transfers serialise
};
std::string_view combine_name(MemoryTimeCombine c);
std::optional<MemoryTimeCombine> combine_from_name(std::string_view name);

struct Memory {
  std::string name;
  std::int64_t capacity_bytes = 0;
  double bandwidth_bytes_per_s = 0;
  // Every address in the memory is a multiple of it (cost model v2, docs/cost-model.md); 1: none.
  std::int64_t alignment_bytes = 1;
  friend bool operator==(const Memory&, const Memory&) = default;
};

inline constexpr std::size_t kMaxMemories = 8;

// The DMA engine of the streaming dynamics (cost model v1, docs/cost-model.md): it copies data a
// coming layer reads from a slow memory into free space of a faster one while earlier layers run.
// Ignored by the pinned dynamics (v0).
struct Dma {
  // How many layers before its reader a copy may be issued (0: no prefetch, v1 = v0).
  std::int64_t lookahead = 8;
  // The memories copies may be staged into, by name; unset: every memory but the slowest.
  std::optional<std::vector<std::string>> staging;
  // Whether the DMA keeps moving data during the per-layer overhead (launch, barrier).
  bool during_overhead = true;
  friend bool operator==(const Dma&, const Dma&) = default;
};

struct Hardware {
  std::string name;
  std::string description;
  std::vector<Memory> memories;  // fastest first; the last is the slowest (where host data lives)
  double peak_macs_per_s = 0;    // int8 multiply-accumulates per second at peak
  double mac_utilisation = 1;    // fraction of the peak that real layers sustain, in (0, 1]
  double vector_ops_per_s = 0;   // elementwise / reduction operations per second
  double layer_overhead_s = 0;   // fixed cost of every layer (launch, synchronisation)
  MemoryTimeCombine memory_time = MemoryTimeCombine::max;
  Dma dma;

  double mac_rate() const { return peak_macs_per_s * mac_utilisation; }
  std::size_t num_memories() const { return memories.size(); }
  std::size_t slowest() const { return memories.size() - 1; }
  std::optional<std::size_t> find_memory(std::string_view memory_name) const;
  // The DMA's staging memories as indices, fastest first (validate() guarantees the names).
  std::vector<std::size_t> staging_memories() const;

  // Throws InputError if any field is out of range ("<origin>: <field>: <problem>").
  void validate(std::string_view origin) const;

  static Hardware from_yaml(std::string_view text, std::string_view origin);
  static Hardware load(const std::filesystem::path& path);
  std::string to_yaml() const;
  friend bool operator==(const Hardware&, const Hardware&) = default;
};

// The hardware model used when none is named (the EGRL paper's chip).
inline constexpr std::string_view kDefaultHardware = "nnpi";

// Finds a hardware model by name among the embedded ones ("nnpi") or, failing that, as a path.
Hardware load_hardware(std::string_view name_or_path = kDefaultHardware);
// The shipped models' names, the default first, then by name.
std::vector<std::string> embedded_hardware_names();

}  // namespace memplace
