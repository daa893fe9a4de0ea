#include "base/state_archive.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/fnv1a.hpp"

namespace memplace {
namespace {

constexpr std::string_view kMagic = "MPLCSTAT";
constexpr std::uint32_t kVersion = 1;

template <class T>
void append(std::string& out, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  out.append(raw, sizeof(T));
}

const char* type_name(RecordType type) {
  switch (type) {
    case RecordType::u64:
      return "u64";
    case RecordType::i64:
      return "i64";
    case RecordType::f64:
      return "f64";
    case RecordType::text:
      return "text";
    case RecordType::f32_array:
      return "f32 array";
    case RecordType::f64_array:
      return "f64 array";
    case RecordType::u8_array:
      return "u8 array";
    case RecordType::u32_array:
      return "u32 array";
    case RecordType::u64_array:
      return "u64 array";
  }
  return "unknown";
}

}  // namespace

StateWriter::StateWriter() {
  bytes_.append(kMagic);
  append(bytes_, kVersion);
}

void StateWriter::record(std::string_view name, RecordType type, const void* data,
                         std::size_t size) {
  append(bytes_, static_cast<std::uint32_t>(name.size()));
  bytes_.append(name);
  append(bytes_, static_cast<std::uint8_t>(type));
  append(bytes_, static_cast<std::uint64_t>(size));
  if (size > 0) bytes_.append(static_cast<const char*>(data), size);
}

void StateWriter::put(std::string_view name, std::uint64_t value) {
  record(name, RecordType::u64, &value, sizeof value);
}
void StateWriter::put(std::string_view name, std::int64_t value) {
  record(name, RecordType::i64, &value, sizeof value);
}
void StateWriter::put(std::string_view name, double value) {
  record(name, RecordType::f64, &value, sizeof value);
}
void StateWriter::put(std::string_view name, std::string_view text) {
  record(name, RecordType::text, text.data(), text.size());
}
void StateWriter::put(std::string_view name, const Rng& rng) {
  const auto state = rng.state();
  put_array<std::uint64_t>(name, state);
}

std::string StateWriter::finish() const {
  std::string out = bytes_;
  append(out, fnv1a64(out));
  return out;
}

void StateWriter::save(const std::filesystem::path& path) const {
  write_file_atomically(path, finish());
}

StateReader::StateReader(std::string bytes, std::string source)
    : bytes_(std::move(bytes)), source_(std::move(source)) {
  const std::size_t header = kMagic.size() + sizeof(std::uint32_t);
  if (bytes_.size() < header + sizeof(std::uint64_t) ||
      std::string_view(bytes_).substr(0, kMagic.size()) != kMagic)
    fail("not a memplace state archive (a checkpoint or a policy)");
  std::uint32_t version = 0;
  std::memcpy(&version, bytes_.data() + kMagic.size(), sizeof version);
  if (version != kVersion)
    fail("archive format version " + std::to_string(version) + ", this build reads " +
         std::to_string(kVersion));
  end_ = bytes_.size() - sizeof(std::uint64_t);
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes_.data() + end_, sizeof stored);
  if (stored != fnv1a64(std::string_view(bytes_).substr(0, end_)))
    fail("checksum mismatch: the file is corrupt or was cut short");
  position_ = header;
}

StateReader StateReader::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read the file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return StateReader(bytes.str(), path.string());
}

// A bad archive is bad input (exit code 2 from the CLI), like any other malformed file.
void StateReader::fail(const std::string& message) const {
  throw InputError(source_ + ": " + message);
}

std::string_view StateReader::next(std::string_view name, RecordType type) {
  auto read = [&](void* out, std::size_t size) {
    if (end_ - position_ < size) fail("record '" + std::string(name) + "' runs past the end");
    std::memcpy(out, bytes_.data() + position_, size);
    position_ += size;
  };
  if (position_ >= end_) fail("ends before record '" + std::string(name) + "'");
  std::uint32_t name_size = 0;
  read(&name_size, sizeof name_size);
  if (end_ - position_ < name_size) fail("record '" + std::string(name) + "' runs past the end");
  const std::string_view found(bytes_.data() + position_, name_size);
  position_ += name_size;
  std::uint8_t found_type = 0;
  read(&found_type, sizeof found_type);
  std::uint64_t size = 0;
  read(&size, sizeof size);
  if (found != name || found_type != static_cast<std::uint8_t>(type))
    fail("expected record '" + std::string(name) + "' (" + type_name(type) + "), found '" +
         std::string(found) + "' (" + type_name(static_cast<RecordType>(found_type)) +
         "): the file of another agent, model or configuration");
  if (end_ - position_ < size) fail("record '" + std::string(name) + "' runs past the end");
  const std::string_view value(bytes_.data() + position_, size);
  position_ += size;
  return value;
}

bool StateReader::next_is(std::string_view name) const {
  std::uint32_t name_size = 0;
  if (end_ - position_ < sizeof name_size) return false;
  std::memcpy(&name_size, bytes_.data() + position_, sizeof name_size);
  const std::size_t start = position_ + sizeof name_size;
  return end_ - start >= name_size && std::string_view(bytes_.data() + start, name_size) == name;
}

std::uint64_t StateReader::get_u64(std::string_view name) {
  std::uint64_t v = 0;
  std::memcpy(&v, next(name, RecordType::u64).data(), sizeof v);
  return v;
}
std::int64_t StateReader::get_i64(std::string_view name) {
  std::int64_t v = 0;
  std::memcpy(&v, next(name, RecordType::i64).data(), sizeof v);
  return v;
}
double StateReader::get_f64(std::string_view name) {
  double v = 0;
  std::memcpy(&v, next(name, RecordType::f64).data(), sizeof v);
  return v;
}
std::string StateReader::get_text(std::string_view name) {
  return std::string(next(name, RecordType::text));
}
Rng StateReader::get_rng(std::string_view name) {
  const std::vector<std::uint64_t> words = get_array<std::uint64_t>(name);
  if (words.size() != 4) fail("record '" + std::string(name) + "' is not a generator state");
  Rng rng;
  rng.set_state({words[0], words[1], words[2], words[3]});
  return rng;
}

void StateReader::expect_end() const {
  if (position_ != end_) fail("holds more records than its reader expects");
}

}  // namespace memplace
