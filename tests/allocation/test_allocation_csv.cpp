// Allocation CSV files (allocation/csv.hpp): the published format round-trips, and every kind
// of malformed file is refused with the file, line and field named.
#include <doctest/doctest.h>

#include "allocation/csv.hpp"
#include "base/errors.hpp"

namespace memplace::allocation {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_allocation_csv(text, "in.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("allocation CSV: the published format round-trips, with and without offsets") {
  const std::string text = "id,lower,upper,size\n0,0,3,16\n1,2,5,8\n";
  const CsvContents csv = parse_allocation_csv(text, "in.csv");
  REQUIRE(csv.buffers.size() == 2);
  CHECK(csv.buffers[1] == Buffer{"1", 2, 5, 8});
  CHECK_FALSE(csv.offsets);
  CHECK(allocation_csv(csv.buffers) == text);

  // Columns in another order, blanks, CRLF and blank lines are read; the output is canonical.
  const CsvContents packed =
      parse_allocation_csv("offset, size,id ,upper,lower\r\n\r\n16,16,a,3,0\r\n0,8,b,5,2\r\n", "p");
  REQUIRE(packed.offsets);
  CHECK(*packed.offsets == std::vector<std::int64_t>{16, 0});
  CHECK(allocation_csv(packed.buffers, *packed.offsets) ==
        "id,lower,upper,size,offset\na,0,3,16,16\nb,2,5,8,0\n");
}

TEST_CASE("allocation CSV: malformed files name the line and the field") {
  CHECK(error_of("") == "in.csv:1: empty file: expected the header id,lower,upper,size");
  CHECK(error_of("id,lower,upper\n0,0,1\n") == "in.csv:1: missing column 'size'");
  CHECK(error_of("id,lower,upper,size,colour\n") ==
        "in.csv:1: unknown column 'colour' (the columns are id, lower, upper, size and optionally "
        "offset)");
  CHECK(error_of("id,lower,upper,size,size\n") == "in.csv:1: column 'size' appears twice");
  CHECK(error_of("id,lower,upper,size\n0,0,1,4\n1,0,1\n") == "in.csv:3: expected 4 fields, got 3");
  CHECK(error_of("id,lower,upper,size\n0,0,1,-4\n") == "in.csv:2: size: negative: -4");
  CHECK(error_of("id,lower,upper,size\n0,3,3,4\n") ==
        "in.csv:2: upper: 3 is not above lower (3): lifetimes are [lower, upper)");
  CHECK(error_of("id,lower,upper,size\n0,-1,3,4\n") == "in.csv:2: lower: negative: -1");
  CHECK(error_of("id,lower,upper,size\n0,0,x,4\n") == "in.csv:2: upper: not an integer: 'x'");
  CHECK(error_of("id,lower,upper,size\n0,0,2,4.5\n") == "in.csv:2: size: not an integer: '4.5'");
  CHECK(error_of("id,lower,upper,size\n0,0,2,\n") == "in.csv:2: size: not an integer: ''");
  CHECK(error_of("id,lower,upper,size\n0,0,2,99999999999999999999\n") ==
        "in.csv:2: size: not an integer: '99999999999999999999'");
  CHECK(error_of("id,lower,upper,size\n0,0,2,2000000000000000\n") ==
        "in.csv:2: size: above 10^15: 2000000000000000");
  CHECK(error_of("id,lower,upper,size\n7,0,2,4\n\n7,1,2,4\n") ==
        "in.csv:4: id: '7' already on line 2");
  CHECK(error_of("id,lower,upper,size\n,0,2,4\n") == "in.csv:2: id: empty");
  CHECK(error_of("id,lower,upper,size,offset\n0,0,2,4,-8\n") == "in.csv:2: offset: negative: -8");
}

}  // namespace
}  // namespace memplace::allocation
