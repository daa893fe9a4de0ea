// Parameter files: named parameter sets (the weights, Adam's moments, ...) in one versioned,
// checksummed binary file, written atomically.
//
// Format, version 1, every integer little-endian:
//   magic            8 bytes  "MPLCGNN\0"
//   version          u32      1
//   element type     u32      4 = float32, 8 = float64 (IEEE 754, little-endian)
//   config           u32 length + UTF-8 bytes, the caller's "kind/config" line, e.g.
//                    "gnn-policy input_features=23 hidden=128 conv_layers=3 memories=3
//                    heads=policy"
//   set count        u32
//   per set:
//     name           u32 length + UTF-8 bytes ("parameters", "adam.m", ...)
//     tensor count   u32
//     per tensor:    u32 length + UTF-8 name, u64 rows, u64 cols
//     values         every tensor's rows * cols values in order (the flat buffer of the set)
//   checksum         u64      FNV-1a 64 of every preceding byte
//
// Reading never trusts the file: every length is bounded by the bytes that remain before anything
// is allocated, and every defect (wrong magic, version or element type, truncation, checksum
// mismatch, trailing bytes, duplicate names) throws std::runtime_error naming the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agents/nn/parameters.hpp"

namespace memplace::nn {

inline constexpr std::uint32_t kParameterFileVersion = 1;

// The sets to write, by name, in file order. T is float or double; with a braced list, name it:
// save_parameters<float>(path, config, {{"parameters", &params}}).
template <class T>
using SetRefs = std::vector<std::pair<std::string, const ParameterSet<T>*>>;

template <class T>
struct NamedSet {
  std::string name;
  ParameterSet<T> set;  // with a fresh layout read from the file
};

template <class T>
struct ParameterFile {
  std::string source;  // the name given when reading, for messages
  std::string config;
  std::vector<NamedSet<T>> sets;  // in file order

  // The set called `name`; throws std::runtime_error naming the source if there is none.
  const ParameterSet<T>& set(std::string_view name) const;
};

// The file's bytes. Throws std::invalid_argument on a null or layout-less set, duplicate or empty
// set names, or a string longer than 2^32 - 1 bytes.
template <class T>
std::string serialize_parameters(std::string_view config, const SetRefs<T>& sets);

// serialize_parameters, written with memplace::write_file_atomically.
template <class T>
void save_parameters(const std::filesystem::path& path, std::string_view config,
                     const SetRefs<T>& sets);

// Reads the bytes of a parameter file holding T values; `source_name` prefixes every message.
template <class T>
ParameterFile<T> parse_parameters(std::string_view bytes, std::string_view source_name);

template <class T>
ParameterFile<T> load_parameters(const std::filesystem::path& path);

// Throws std::runtime_error unless `found` (read from `source_name`) has the tensors of
// `expected`, in order, with their shapes; the message names the first difference.
void require_layout(const ParameterLayout& expected, const ParameterLayout& found,
                    std::string_view source_name);

// FNV-1a 64 (the file's checksum).
std::uint64_t fnv1a64(std::string_view bytes);

}  // namespace memplace::nn
