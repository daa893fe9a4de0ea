#include "apps/shared/text_table.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace memplace::cli {

namespace {

bool looks_numeric(const std::string& cell) {
  return !cell.empty() &&
         (std::isdigit(static_cast<unsigned char>(cell[0])) ||
          (cell.size() > 1 && cell[0] == '-' && std::isdigit(static_cast<unsigned char>(cell[1]))));
}

// Characters on screen: UTF-8 continuation bytes (10xxxxxx) take no column ("—", "…").
std::size_t display_width(const std::string& cell) {
  return static_cast<std::size_t>(std::count_if(cell.begin(), cell.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

}  // namespace

void TextTable::print(std::ostream& out) const {
  std::size_t columns = 0;
  for (const auto& row : rows_)
    columns = std::max(columns, row.size());
  std::vector<std::size_t> width(columns, 0);
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  }
  // A column is right-aligned when every body cell in it is a number.
  std::vector<bool> numeric(columns, rows_.size() > 1);
  for (std::size_t r = 1; r < rows_.size(); ++r) {
    for (std::size_t c = 0; c < columns; ++c) {
      numeric[c] = numeric[c] && c < rows_[r].size() && looks_numeric(rows_[r][c]);
    }
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    out << '|';
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      const std::string pad(width[c] - display_width(cell), ' ');
      out << ' ' << (numeric[c] ? pad + cell : cell + pad) << " |";
    }
    out << '\n';
  };
  print_row(rows_.front());
  out << '|';
  for (std::size_t c = 0; c < columns; ++c)
    out << std::string(width[c] + 2, '-') << '|';
  out << '\n';
  for (std::size_t r = 1; r < rows_.size(); ++r)
    print_row(rows_[r]);
}

}  // namespace memplace::cli
