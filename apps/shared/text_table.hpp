// A plain-text table for terminal output: columns sized to their widest cell, numbers
// right-aligned.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "base/number_format.hpp"

namespace memplace::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : rows_{std::move(header)} {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Markdown-compatible pipes, so the output pastes straight into a README.
  void print(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace memplace::cli
