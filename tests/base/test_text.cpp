// The ground floor's text helpers: join and the Markdown table every report writes.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "base/markdown_table.hpp"
#include "base/text.hpp"

namespace memplace {
namespace {

TEST_CASE("text: join puts the separator between values only") {
  CHECK(join(std::vector<std::string>{}, ", ").empty());
  CHECK(join(std::vector<std::string>{"egrl"}, ", ") == "egrl");
  CHECK(join(std::vector<std::string>{"", "b", ""}, ",") == ",b,");  // empty values kept
}

TEST_CASE("markdown table: header, aligned separator and rows, as the reports write them") {
  using Align = MarkdownTable::Align;
  MarkdownTable table({{"agent"}, {"resnet50", Align::right}, {"note"}});
  CHECK(table.str() == "| agent | resnet50 | note |\n|---|---:|---|\n");
  table.add_row({"egrl", "1.0100", "**best**"});
  table.add_row({"random", "0.9000", ""});
  CHECK(table.rows() == 2);
  CHECK(table.str() ==
        "| agent | resnet50 | note |\n|---|---:|---|\n| egrl | 1.0100 | **best** |\n"
        "| random | 0.9000 | |\n");  // an empty cell: one space
  CHECK_THROWS_AS(table.add_row({"sa", "1.0"}), std::invalid_argument);
  CHECK_THROWS_AS(MarkdownTable({}), std::invalid_argument);
}

}  // namespace
}  // namespace memplace
