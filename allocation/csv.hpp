// Allocation problems and packings as CSV, the format of the published allocation benchmarks
// (MiniMalloc's): a header naming the columns id, lower, upper, size (any order) and, for a
// packing, offset; one buffer per line; lifetimes half-open. Errors name the file, line and field.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

struct CsvContents {
  std::vector<Buffer> buffers;
  std::optional<std::vector<std::int64_t>> offsets;  // when the file has an offset column
};

// Parses `text`; `name` is the file name errors start with. Throws InputError
// "<name>:<line>: <field>: <what>" for a missing, unknown or repeated column, a line with another
// number of fields, a value that is not an integer, lower < 0, upper <= lower, a negative size or
// offset, a value above 10^15, an empty or repeated id.
CsvContents parse_allocation_csv(std::string_view text, const std::string& name);
// Reads and parses a file (InputError if it cannot be read).
CsvContents read_allocation_csv(const std::filesystem::path& path);

// The CSV text of `buffers`, with an offset column when `offsets` is not empty.
std::string allocation_csv(std::span<const Buffer> buffers,
                           std::span<const std::int64_t> offsets = {});

}  // namespace memplace::allocation
