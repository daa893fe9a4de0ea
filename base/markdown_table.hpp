// A Markdown table as every report writes one (table.md, suite.md, the leaderboard, transfer.md):
//
//   | agent | resnet50 |
//   |---|---:|
//   | egrl | 1.0100 |
//
// a header, a separator that right-aligns the numeric columns, a line per row. (apps/shared's
// TextTable pads its columns for a terminal; this one writes the compact form a report keeps.)
#pragma once

#include <string>
#include <vector>

namespace memplace {

class MarkdownTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string header;
    Align align = Align::left;
  };

  explicit MarkdownTable(std::vector<Column> columns);
  // std::invalid_argument unless there are as many cells as columns.
  void add_row(std::vector<std::string> cells);
  std::size_t rows() const { return rows_.size(); }
  std::string str() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace memplace
