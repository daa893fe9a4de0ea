// FNV-1a, 64 bits: the checksum of state archives (base/state_archive.hpp) and the model
// fingerprint of optimum certificates (optimum/certificate.hpp). Not for security.
#pragma once

#include <cstdint>
#include <string_view>

namespace memplace {

class Fnv1a64 {
 public:
  void add_bytes(std::string_view bytes) {
    for (const char c : bytes)
      add_byte(static_cast<unsigned char>(c));
  }
  // The 8 bytes of `value`, little-endian whatever the machine.
  void add(std::int64_t value) {
    const auto v = static_cast<std::uint64_t>(value);
    for (int byte = 0; byte < 8; ++byte)
      add_byte((v >> (8 * byte)) & 0xffu);
  }
  std::uint64_t value() const { return hash_; }

 private:
  void add_byte(std::uint64_t byte) {
    hash_ ^= byte;
    hash_ *= 1099511628211ull;
  }
  std::uint64_t hash_ = 14695981039346656037ull;
};

inline std::uint64_t fnv1a64(std::string_view bytes) {
  Fnv1a64 h;
  h.add_bytes(bytes);
  return h.value();
}

}  // namespace memplace
