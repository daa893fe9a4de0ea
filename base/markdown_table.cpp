#include "base/markdown_table.hpp"

#include <stdexcept>

namespace memplace {

namespace {

// "| a | b |"; an empty cell is "| |".
std::string line(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& cell : cells)
    out += cell.empty() ? " |" : " " + cell + " |";
  return out + "\n";
}

}  // namespace

MarkdownTable::MarkdownTable(std::vector<Column> columns) : columns_(std::move(columns)) {
  if (columns_.empty()) throw std::invalid_argument("MarkdownTable: no columns");
}

void MarkdownTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::invalid_argument("MarkdownTable: a row of " + std::to_string(cells.size()) +
                                " cells in a table of " + std::to_string(columns_.size()) +
                                " columns");
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::str() const {
  std::vector<std::string> headers;
  std::string separator = "|";
  for (const Column& c : columns_) {
    headers.push_back(c.header);
    separator += c.align == Align::right ? "---:|" : "---|";
  }
  std::string out = line(headers) + separator + "\n";
  for (const std::vector<std::string>& row : rows_)
    out += line(row);
  return out;
}

}  // namespace memplace
