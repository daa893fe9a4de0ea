#include "allocation/csv.hpp"

#include <array>
#include <charconv>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "base/errors.hpp"

namespace memplace::allocation {
namespace {

constexpr std::array<std::string_view, 5> kColumns = {"id", "lower", "upper", "size", "offset"};
enum Column { kId, kLower, kUpper, kSize, kOffset };

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && blank(s.back()))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t comma = line.find(',');
    fields.push_back(trim(line.substr(0, comma)));
    if (comma == std::string_view::npos) return fields;
    line.remove_prefix(comma + 1);
  }
}

class Reader {
 public:
  explicit Reader(const std::string& name) : name_(name) {}

  [[noreturn]] void fail(std::size_t line, std::string_view field, const std::string& what) const {
    std::string message = name_ + ":" + std::to_string(line) + ": ";
    if (!field.empty()) message += std::string(field) + ": ";
    throw InputError(message + what);
  }

  // The position of each known column in the header (-1 when absent).
  std::array<int, 5> header(std::string_view text, std::size_t line) const {
    std::array<int, 5> at{-1, -1, -1, -1, -1};
    const std::vector<std::string_view> names = split_fields(text);
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::size_t c = 0;
      while (c < kColumns.size() && kColumns[c] != names[i])
        ++c;
      if (c == kColumns.size())
        fail(line, "",
             "unknown column '" + std::string(names[i]) +
                 "' (the columns are id, lower, upper, size and optionally offset)");
      if (at[c] >= 0) fail(line, "", "column '" + std::string(names[i]) + "' appears twice");
      at[c] = static_cast<int>(i);
    }
    for (std::size_t c = 0; c < kOffset; ++c)
      if (at[c] < 0) fail(line, "", "missing column '" + std::string(kColumns[c]) + "'");
    return at;
  }

  std::int64_t integer(std::string_view text, std::size_t line, std::string_view field) const {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
      fail(line, field, "not an integer: '" + std::string(text) + "'");
    if (value > kMaxValue) fail(line, field, "above 10^15: " + std::string(text));
    return value;
  }

 private:
  const std::string& name_;
};

}  // namespace

CsvContents parse_allocation_csv(std::string_view text, const std::string& name) {
  const Reader reader(name);
  CsvContents contents;
  std::array<int, 5> at{};
  bool have_header = false;
  std::unordered_map<std::string, std::size_t> line_of_id;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    if (trim(line).empty()) continue;
    if (!have_header) {
      at = reader.header(line, line_number);
      have_header = true;
      if (at[kOffset] >= 0) contents.offsets.emplace();
      continue;
    }
    const std::vector<std::string_view> fields = split_fields(line);
    std::size_t columns = 0;
    for (const int a : at)
      columns += a >= 0;
    if (fields.size() != columns)
      reader.fail(
          line_number, "",
          "expected " + std::to_string(columns) + " fields, got " + std::to_string(fields.size()));
    const auto value = [&](Column c) {
      return reader.integer(fields[at[c]], line_number, kColumns[c]);
    };
    Buffer b;
    b.id = std::string(fields[at[kId]]);
    if (b.id.empty()) reader.fail(line_number, "id", "empty");
    b.lower = value(kLower);
    b.upper = value(kUpper);
    b.size = value(kSize);
    if (b.lower < 0) reader.fail(line_number, "lower", "negative: " + std::to_string(b.lower));
    if (b.upper <= b.lower)
      reader.fail(line_number, "upper",
                  std::to_string(b.upper) + " is not above lower (" + std::to_string(b.lower) +
                      "): lifetimes are [lower, upper)");
    if (b.size < 0) reader.fail(line_number, "size", "negative: " + std::to_string(b.size));
    if (const auto [it, fresh] = line_of_id.emplace(b.id, line_number); !fresh)
      reader.fail(line_number, "id",
                  "'" + b.id + "' already on line " + std::to_string(it->second));
    if (contents.offsets) {
      const std::int64_t offset = value(kOffset);
      if (offset < 0) reader.fail(line_number, "offset", "negative: " + std::to_string(offset));
      contents.offsets->push_back(offset);
    }
    contents.buffers.push_back(std::move(b));
  }
  if (!have_header) reader.fail(1, "", "empty file: expected the header id,lower,upper,size");
  return contents;
}

CsvContents read_allocation_csv(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_allocation_csv(text.str(), path.string());
}

std::string allocation_csv(std::span<const Buffer> buffers, std::span<const std::int64_t> offsets) {
  std::string out = offsets.empty() ? "id,lower,upper,size\n" : "id,lower,upper,size,offset\n";
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    out += b.id + "," + std::to_string(b.lower) + "," + std::to_string(b.upper) + "," +
           std::to_string(b.size);
    if (!offsets.empty()) out += "," + std::to_string(offsets[i]);
    out += "\n";
  }
  return out;
}

}  // namespace memplace::allocation
