#include "agents/nn/serialize.hpp"

#include <algorithm>
#include <bit>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "env/atomic_file.hpp"

namespace memplace::nn {

namespace {

constexpr std::string_view kMagic{"MPLCGNN\0", 8};
constexpr std::size_t kMinTensorHeader = 4 + 8 + 8;  // empty name, rows, cols

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
constexpr std::uint32_t element_type() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  return sizeof(T);
}

std::string element_name(std::uint32_t type) {
  return "float" + std::to_string(8 * type);
}

// ---- writing ----

template <class U>
void put(std::string& out, U value) {
  for (std::size_t i = 0; i < sizeof(U); ++i) {
    out.push_back(static_cast<char>(value >> (8 * i)));
  }
}

void put_string(std::string& out, std::string_view s, const std::string& what) {
  if (s.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("serialize_parameters: " + what + " is too long");
  }
  put(out, static_cast<std::uint32_t>(s.size()));
  out.append(s);
}

// ---- reading ----

template <class U>
U get(const char* p) {
  U value = 0;
  for (std::size_t i = 0; i < sizeof(U); ++i) {
    value |= static_cast<U>(static_cast<unsigned char>(p[i])) << (8 * i);
  }
  return value;
}

// A cursor over the file that refuses to read past its end.
class Reader {
 public:
  Reader(std::string_view bytes, std::string_view source) : bytes_(bytes), source_(source) {}

  std::size_t position() const { return position_; }
  std::size_t remaining() const { return bytes_.size() - position_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(std::string(source_) + ": " + what);
  }
  [[noreturn]] void truncated(const std::string& what) const {
    fail("truncated at byte " + std::to_string(bytes_.size()) + " (reading " + what + " at byte " +
         std::to_string(position_) + ")");
  }

  std::string_view take(std::size_t n, const std::string& what) {
    if (n > remaining()) truncated(what);
    const std::string_view out = bytes_.substr(position_, n);
    position_ += n;
    return out;
  }
  template <class U>
  U number(const std::string& what) {
    return get<U>(take(sizeof(U), what).data());
  }
  std::string_view string(const std::string& what) {
    const auto length = number<std::uint32_t>("the length of " + what);
    if (length > remaining()) {
      truncated(what + ", " + std::to_string(length) + " bytes long, " +
                std::to_string(remaining()) + " remain");
    }
    return take(length, what);
  }

 private:
  std::string_view bytes_;
  std::string_view source_;
  std::size_t position_ = 0;
};

struct TensorEntry {
  std::string_view name;
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
};

// One set as found in the file, before anything is trusted beyond its bounds.
struct SetEntry {
  std::string_view name;
  std::vector<TensorEntry> tensors;
  std::string_view values;
};

template <class T>
SetEntry read_set(Reader& in, std::size_t index) {
  SetEntry set;
  set.name = in.string("the name of set " + std::to_string(index));
  const std::string where = "set '" + std::string(set.name) + "'";
  const auto count = in.number<std::uint32_t>("the tensor count of " + where);
  if (count > in.remaining() / kMinTensorHeader) {
    in.truncated(where + ", which claims " + std::to_string(count) + " tensors");
  }
  const std::uint64_t max_values = in.remaining() / sizeof(T);
  std::uint64_t total = 0;
  for (std::uint32_t t = 0; t < count; ++t) {
    TensorEntry e;
    e.name = in.string("the name of tensor " + std::to_string(t) + " of " + where);
    const std::string tensor = "tensor '" + std::string(e.name) + "' of " + where;
    e.rows = in.number<std::uint64_t>("the rows of " + tensor);
    e.cols = in.number<std::uint64_t>("the columns of " + tensor);
    // Each term and the running total stay <= max_values, so nothing overflows.
    if (e.cols != 0 && e.rows > max_values / e.cols) {
      in.truncated(tensor + ", which claims " + std::to_string(e.rows) + " x " +
                   std::to_string(e.cols) + " values");
    }
    total += e.rows * e.cols;
    if (total > max_values) in.truncated("the values of " + where);
    set.tensors.push_back(e);
  }
  set.values = in.take(total * sizeof(T), "the values of " + where);
  return set;
}

template <class T>
NamedSet<T> build_set(const SetEntry& entry, const Reader& in) {
  auto layout = std::make_shared<ParameterLayout>();
  for (const TensorEntry& t : entry.tensors) {
    try {
      layout->add(std::string(t.name), t.rows, t.cols);
    } catch (const std::invalid_argument& e) {
      in.fail("set '" + std::string(entry.name) + "': " + e.what());
    }
  }
  NamedSet<T> out{std::string(entry.name), ParameterSet<T>(std::move(layout))};
  const std::span<T> values = out.set.values();
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = std::bit_cast<T>(get<Bits<T>>(entry.values.data() + i * sizeof(T)));
  }
  return out;
}

}  // namespace

std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

template <class T>
const ParameterSet<T>& ParameterFile<T>::set(std::string_view name) const {
  for (const NamedSet<T>& s : sets) {
    if (s.name == name) return s.set;
  }
  throw std::runtime_error(source + ": no parameter set '" + std::string(name) + "'");
}

template <class T>
std::string serialize_parameters(std::string_view config, const SetRefs<T>& sets) {
  if (sets.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("serialize_parameters: too many sets");
  }
  std::string out(kMagic);
  put(out, kParameterFileVersion);
  put(out, element_type<T>());
  put_string(out, config, "config");
  put(out, static_cast<std::uint32_t>(sets.size()));
  std::set<std::string_view> names;
  for (const auto& [name, set] : sets) {
    if (name.empty() || !names.insert(name).second) {
      throw std::invalid_argument("serialize_parameters: set name '" + name +
                                  "' is empty or repeated");
    }
    if (set == nullptr || set->shared_layout() == nullptr) {
      throw std::invalid_argument("serialize_parameters: set '" + name + "' has no parameters");
    }
    put_string(out, name, "set name '" + name + "'");
    const auto& tensors = set->layout().tensors();
    if (tensors.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw std::invalid_argument("serialize_parameters: set '" + name + "' has too many tensors");
    }
    put(out, static_cast<std::uint32_t>(tensors.size()));
    for (const TensorSpec& t : tensors) {
      put_string(out, t.name, "tensor name '" + t.name + "'");
      put(out, static_cast<std::uint64_t>(t.rows));
      put(out, static_cast<std::uint64_t>(t.cols));
    }
    // The flat buffer is the tensors in layout order (ParameterLayout::add appends).
    for (const T value : set->values()) {
      put(out, std::bit_cast<Bits<T>>(value));
    }
  }
  put(out, fnv1a64(out));
  return out;
}

template <class T>
void save_parameters(const std::filesystem::path& path, std::string_view config,
                     const SetRefs<T>& sets) {
  write_file_atomically(path, serialize_parameters(config, sets));
}

template <class T>
ParameterFile<T> parse_parameters(std::string_view bytes, std::string_view source_name) {
  Reader in(bytes, source_name);
  if (bytes.size() < kMagic.size() && kMagic.starts_with(bytes)) in.truncated("the magic");
  if (!bytes.starts_with(kMagic)) in.fail("not a memplace GNN parameter file");
  in.take(kMagic.size(), "the magic");
  const auto version = in.number<std::uint32_t>("the format version");
  if (version != kParameterFileVersion) {
    in.fail("unsupported format version " + std::to_string(version) + " (this build reads " +
            std::to_string(kParameterFileVersion) + ")");
  }
  const auto type = in.number<std::uint32_t>("the element type");
  if (type != 4 && type != 8) in.fail("unsupported element type " + std::to_string(type));
  if (type != element_type<T>()) {
    in.fail("holds " + element_name(type) + " values, " + element_name(element_type<T>()) +
            " expected");
  }

  ParameterFile<T> file;
  file.source = source_name;
  file.config = in.string("the config");
  const auto count = in.number<std::uint32_t>("the set count");
  std::vector<SetEntry> entries;
  for (std::uint32_t s = 0; s < count; ++s) {
    entries.push_back(read_set<T>(in, s));
  }

  // The structure is sound; now trust nothing before the checksum agrees.
  const std::size_t end = in.position();
  const auto checksum = in.number<std::uint64_t>("the checksum");
  if (in.remaining() > 0) {
    in.fail(std::to_string(in.remaining()) + " trailing bytes after the checksum at byte " +
            std::to_string(end));
  }
  if (checksum != fnv1a64(bytes.substr(0, end))) in.fail("checksum mismatch: the file is corrupt");

  std::set<std::string_view> names;
  for (const SetEntry& entry : entries) {
    if (!names.insert(entry.name).second) {
      in.fail("duplicate parameter set '" + std::string(entry.name) + "'");
    }
    file.sets.push_back(build_set<T>(entry, in));
  }
  return file;
}

template <class T>
ParameterFile<T> load_parameters(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw std::runtime_error(path.string() + ": not a regular file, or it does not exist");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open for reading");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw std::runtime_error(path.string() + ": read failed");
  return parse_parameters<T>(bytes.view(), path.string());
}

void require_layout(const ParameterLayout& expected, const ParameterLayout& found,
                    std::string_view source_name) {
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error(std::string(source_name) + ": " + what);
  };
  const auto has = [](const ParameterLayout& layout, const std::string& name) {
    for (const TensorSpec& t : layout.tensors()) {
      if (t.name == name) return true;
    }
    return false;
  };
  const auto& want = expected.tensors();
  const auto& got = found.tensors();
  for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    if (i >= got.size() || (i < want.size() && !has(found, want[i].name))) {
      fail("parameter '" + want[i].name + "' is missing from the file");
    }
    if (i >= want.size() || !has(expected, got[i].name)) {
      fail("unexpected parameter '" + got[i].name + "' in the file");
    }
    if (want[i].name != got[i].name) {
      fail("parameter " + std::to_string(i) + " is '" + got[i].name + "' in the file, '" +
           want[i].name + "' expected");
    }
    if (want[i].rows != got[i].rows || want[i].cols != got[i].cols) {
      fail("parameter '" + want[i].name + "' is " + std::to_string(got[i].rows) + " x " +
           std::to_string(got[i].cols) + " in the file, " + std::to_string(want[i].rows) + " x " +
           std::to_string(want[i].cols) + " expected");
    }
  }
}

#define MEMPLACE_INSTANTIATE(T)                                                      \
  template struct ParameterFile<T>;                                                  \
  template std::string serialize_parameters<T>(std::string_view, const SetRefs<T>&); \
  template void save_parameters<T>(const std::filesystem::path&, std::string_view,   \
                                   const SetRefs<T>&);                               \
  template ParameterFile<T> parse_parameters<T>(std::string_view, std::string_view); \
  template ParameterFile<T> load_parameters<T>(const std::filesystem::path&);

MEMPLACE_INSTANTIATE(float)
MEMPLACE_INSTANTIATE(double)
#undef MEMPLACE_INSTANTIATE

}  // namespace memplace::nn
