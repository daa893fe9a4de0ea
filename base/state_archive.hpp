// State archives: named, typed records in one binary file with a checksum — the trainer's and the
// agents' checkpoints (a resumed run continues exactly where the saved one stopped) and saved GNN
// policies (agents/nn/gnn_file.hpp). The one binary format memplace writes.
//
// Records are read back in the order they were written; each read names the record it expects,
// so a file from another agent, model or version fails with a message naming the record, and a
// truncated or corrupted file (the checksum) fails before anything is used.
//
// Format: magic "MPLCSTAT", u32 version, then records (u32 name length, name, u8 type, u64 byte
// length, bytes), then a u64 FNV-1a checksum of everything before it. Little-endian.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/rng.hpp"

namespace memplace {

enum class RecordType : std::uint8_t {
  u64 = 1,
  i64 = 2,
  f64 = 3,
  text = 4,
  f32_array = 5,
  f64_array = 6,
  u8_array = 7,
  u32_array = 8,
  u64_array = 9,
};

template <class T>
constexpr RecordType array_type() {
  if constexpr (std::is_same_v<T, float>)
    return RecordType::f32_array;
  else if constexpr (std::is_same_v<T, double>)
    return RecordType::f64_array;
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return RecordType::u8_array;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return RecordType::u32_array;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return RecordType::u64_array;
  else
    static_assert(sizeof(T) == 0, "no record type for this element");
}

// The name of a record inside a component's part of an archive: "<prefix>.<name>".
inline std::string state_key(std::string_view prefix, std::string_view name) {
  return std::string(prefix) + "." + std::string(name);
}

class StateWriter {
 public:
  StateWriter();
  void put(std::string_view name, std::uint64_t value);
  void put(std::string_view name, std::int64_t value);
  void put(std::string_view name, double value);
  void put(std::string_view name, std::string_view text);
  void put(std::string_view name, const Rng& rng);
  template <class T>
  void put_array(std::string_view name, std::span<const T> values) {
    record(name, array_type<T>(), values.data(), values.size() * sizeof(T));
  }
  // The archive's bytes, with the checksum appended.
  std::string finish() const;
  // finish(), written atomically.
  void save(const std::filesystem::path& path) const;

 private:
  void record(std::string_view name, RecordType type, const void* data, std::size_t size);
  std::string bytes_;
};

class StateReader {
 public:
  // Checks the magic, version and checksum; throws InputError (a std::runtime_error) naming
  // `source`.
  StateReader(std::string bytes, std::string source);
  static StateReader load(const std::filesystem::path& path);

  std::uint64_t get_u64(std::string_view name);
  std::int64_t get_i64(std::string_view name);
  double get_f64(std::string_view name);
  std::string get_text(std::string_view name);
  Rng get_rng(std::string_view name);
  template <class T>
  std::vector<T> get_array(std::string_view name) {
    const std::string_view raw = next(name, array_type<T>());
    if (raw.size() % sizeof(T) != 0) fail("record '" + std::string(name) + "' has a bad length");
    std::vector<T> out(raw.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), raw.data(), raw.size());
    return out;
  }
  // Reads an array into `out`, which must have exactly its length (a model's parameters).
  template <class T>
  void get_array_into(std::string_view name, std::span<T> out) {
    const std::string_view raw = next(name, array_type<T>());
    if (raw.size() != out.size() * sizeof(T))
      fail("record '" + std::string(name) + "' holds " + std::to_string(raw.size() / sizeof(T)) +
           " values, expected " + std::to_string(out.size()));
    if (!out.empty()) std::memcpy(out.data(), raw.data(), raw.size());
  }
  // Whether the next record is named `name` (an optional record, such as a version some writers
  // did not yet write); reads nothing.
  bool next_is(std::string_view name) const;
  // Throws unless every record was read (a checkpoint with more state than the reader expects).
  void expect_end() const;
  const std::string& source() const { return source_; }

 private:
  std::string_view next(std::string_view name, RecordType type);
  [[noreturn]] void fail(const std::string& message) const;
  std::string bytes_;
  std::string source_;
  std::size_t position_ = 0;
  std::size_t end_ = 0;  // where the checksum starts
};

}  // namespace memplace
