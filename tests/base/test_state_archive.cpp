// The state archive (base/state_archive.hpp), memplace's one binary format: checkpoints and
// saved policies. Every record type round-trips bit for bit, and no corrupted or truncated file
// is ever read as good.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "base/errors.hpp"
#include "base/state_archive.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

std::string small_archive() {
  StateWriter out;
  out.put("a.count", std::uint64_t{7});
  out.put("a.delta", std::int64_t{-3});
  out.put("a.rate", 0.25);
  out.put("a.name", std::string_view("resnet50"));
  const std::vector<float> values = {1.5f, -2.0f, 3.25f};
  out.put_array<float>("a.values", values);
  return out.finish();
}

// The message a corrupted archive gives, or "" if it reads as good.
std::string read_error(const std::string& bytes) {
  try {
    StateReader in(bytes, "state.bin");
    in.get_u64("a.count");
    in.get_i64("a.delta");
    in.get_f64("a.rate");
    in.get_text("a.name");
    in.get_array<float>("a.values");
    in.expect_end();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("state archive: every record type reads back bit for bit") {
  StateWriter out;
  const double odd = std::nextafter(1.0, 2.0);
  out.put("u", std::numeric_limits<std::uint64_t>::max());
  out.put("i", std::numeric_limits<std::int64_t>::min());
  out.put("f", odd);
  out.put("t", std::string_view("two\nlines"));
  Rng rng(9);
  rng.next();
  out.put("rng", rng);
  const std::vector<double> doubles = {-0.0, std::numeric_limits<double>::denorm_min(), 1e300};
  out.put_array<double>("d", doubles);
  const std::vector<std::uint8_t> bytes = {0, 255};
  out.put_array<std::uint8_t>("b", bytes);
  out.put_array<std::uint64_t>("empty", std::span<const std::uint64_t>{});
  StateReader in(out.finish(), "mem");
  CHECK(in.get_u64("u") == std::numeric_limits<std::uint64_t>::max());
  CHECK(in.get_i64("i") == std::numeric_limits<std::int64_t>::min());
  CHECK(in.get_f64("f") == odd);
  CHECK(in.get_text("t") == "two\nlines");
  Rng back = in.get_rng("rng");
  CHECK(back.next() == rng.next());
  const std::vector<double> d = in.get_array<double>("d");
  REQUIRE(d.size() == 3);
  CHECK(std::signbit(d[0]));
  CHECK(d[1] == std::numeric_limits<double>::denorm_min());
  CHECK(in.get_array<std::uint8_t>("b") == bytes);
  CHECK(in.get_array<std::uint64_t>("empty").empty());
  in.expect_end();
}

TEST_CASE("state archive: saving replaces a file atomically") {
  testing::TempDir dir;
  const auto path = dir.path / "state.bin";
  StateWriter first, second;
  first.put("x", std::uint64_t{1});
  second.put("x", std::uint64_t{2});
  first.save(path);
  second.save(path);
  CHECK(StateReader::load(path).get_u64("x") == 2);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path))
    CHECK(entry.path().filename() == "state.bin");  // no temporary left beside it
  CHECK_THROWS_WITH_AS(StateReader::load(dir.path / "missing.bin"),
                       doctest::Contains("missing.bin: cannot read the file"), InputError);
}

TEST_CASE("state archive: every single-byte flip is detected") {
  const std::string good = small_archive();
  REQUIRE(read_error(good).empty());
  for (const unsigned mask : {0x01u, 0x80u, 0xffu}) {
    for (std::size_t at = 0; at < good.size(); ++at) {
      std::string bad = good;
      bad[at] = static_cast<char>(static_cast<unsigned char>(bad[at]) ^ mask);
      INFO("byte " << at << " xor " << mask);
      CHECK(read_error(bad).starts_with("state.bin: "));
    }
  }
}

TEST_CASE("state archive: every truncation and any trailing byte is detected") {
  const std::string good = small_archive();
  for (std::size_t size = 0; size < good.size(); ++size) {
    INFO("size " << size);
    CHECK(read_error(good.substr(0, size)).starts_with("state.bin: "));
  }
  CHECK(read_error(good + "x").starts_with("state.bin: "));
}

TEST_CASE("state archive: what is wrong is said") {
  const std::string good = small_archive();
  CHECK(read_error("hello, world") ==
        "state.bin: not a memplace state archive (a checkpoint or a policy)");
  std::string bad = good;
  bad[bad.size() - 1] ^= 0x10;
  CHECK(read_error(bad) == "state.bin: checksum mismatch: the file is corrupt or was cut short");
  // Sound bytes read by the wrong reader: the records are named.
  StateReader in(good, "state.bin");
  CHECK_THROWS_WITH_AS(in.get_f64("a.count"),
                       doctest::Contains("expected record 'a.count' (f64), found 'a.count' (u64)"),
                       InputError);
  StateReader partial(good, "state.bin");
  partial.get_u64("a.count");
  CHECK_THROWS_WITH_AS(partial.expect_end(), doctest::Contains("holds more records"), InputError);
  StateReader sizes(good, "state.bin");
  sizes.get_u64("a.count");
  sizes.get_i64("a.delta");
  sizes.get_f64("a.rate");
  sizes.get_text("a.name");
  std::vector<float> two(2);
  CHECK_THROWS_WITH_AS(sizes.get_array_into<float>("a.values", two),
                       doctest::Contains("record 'a.values' holds 3 values, expected 2"),
                       InputError);
}

TEST_CASE("state archive: next_is peeks at the next record's name without reading it") {
  StateWriter out;
  out.put("first", std::uint64_t{1});
  out.put("second", std::string_view("two"));
  StateReader in(out.finish(), "test");
  CHECK(in.next_is("first"));
  CHECK_FALSE(in.next_is("second"));
  CHECK_FALSE(in.next_is("firs"));
  CHECK(in.get_u64("first") == 1);
  CHECK(in.next_is("second"));
  CHECK(in.get_text("second") == "two");
  CHECK_FALSE(in.next_is("second"));
  in.expect_end();
}

}  // namespace
}  // namespace memplace
