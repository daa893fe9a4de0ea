// Mapping files: a mapping that names its workload and hardware, replayable with
// `memplace evaluate` (and re-checked against the result recorded in it, CompilerGym-style).
//
//   workload: resnet50
//   hardware: nnpi
//   result: {latency_fs: 812345678901, valid: true, memory_time: max}   # optional; re-checked
//           (under streaming also: dynamics: streaming, lookahead: 8)
//   optimum: {...}   # optional: how an exact solver certified this mapping (optimum/)
//   layers:
//     - {layer: conv1, weight: SRAM, activation: LLC}
//     - ...
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "model/inputs/mapping.hpp"
#include "model/model_spec.hpp"
#include "model/simulator.hpp"

namespace memplace {

struct RecordedResult {
  TimeFs latency_fs = 0;
  bool valid = false;
};

struct MappingHeader {
  // The model the file names: its workload and hardware (names or paths), and the memory-time
  // rule, dynamics and lookahead its recorded result was scored under. Files written before the
  // result recorded them: the hardware model's rule, pinned dynamics.
  ModelSpec model;
  int hardware_line = 0;  // where the hardware is named, for error messages

  // Whether a result recorded under this header can be re-checked by `sim`.
  bool scored_like(const Simulator& sim) const;
};

// Reads only the names of the workload and hardware a mapping file refers to.
MappingHeader read_mapping_header(std::string_view text, std::string_view origin);

struct MappingFile {
  MappingHeader header;
  Mapping mapping;
  std::optional<RecordedResult> recorded;
};

// Parses a mapping for this simulator's workload and hardware: the file must name the same
// workload, list every layer once in schedule order, and use the hardware's memory names.
// Throws InputError with file, line and field.
MappingFile parse_mapping(std::string_view text, std::string_view origin, const Simulator& sim);
MappingFile load_mapping(const std::filesystem::path& path, const Simulator& sim);

// The recorded result is written with the simulator's memory-time rule (and its dynamics and
// lookahead when streaming). `sections`: top-level YAML
// entries in block style written before the layers (a certificate's `optimum` block).
std::string mapping_to_yaml(const Simulator& sim, std::span<const MemoryIndex> mapping,
                            const std::optional<RecordedResult>& recorded = std::nullopt,
                            std::string_view sections = {});
// Writes atomically.
void save_mapping(const std::filesystem::path& path, const Simulator& sim,
                  std::span<const MemoryIndex> mapping,
                  const std::optional<RecordedResult>& recorded = std::nullopt);

}  // namespace memplace
