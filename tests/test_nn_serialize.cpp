// Parameter files: bit-identical round trips, and every corruption caught with a clear message.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "agents/nn/serialize.hpp"
#include "env/rng.hpp"
#include "tests/agent_harness.hpp"

namespace memplace::nn {
namespace {

using testing::TempDir;

std::shared_ptr<const ParameterLayout> make_layout(std::size_t hidden) {
  auto layout = std::make_shared<ParameterLayout>();
  layout->add("encoder.weight", 5, hidden);
  layout->add("encoder.bias", 1, hidden);
  layout->add("empty", 0, 4);
  layout->add("value.out.bias", 1, 1);
  return layout;
}

template <class T>
ParameterSet<T> random_set(const std::shared_ptr<const ParameterLayout>& layout,
                           std::uint64_t seed) {
  Rng rng(seed);
  ParameterSet<T> set(layout);
  for (T& x : set.values()) {
    x = static_cast<T>(rng.uniform01() * 2 - 1);
  }
  return set;
}

template <class T>
bool bit_identical(const ParameterSet<T>& a, const ParameterSet<T>& b) {
  return a.size() == b.size() &&
         std::memcmp(a.values().data(), b.values().data(), a.size() * sizeof(T)) == 0;
}

// The message of the exception parsing `bytes` throws ("" if none).
std::string parse_error(const std::string& bytes) {
  try {
    parse_parameters<float>(bytes, "model.bin");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// A small float file: one set, two tensors.
std::string small_file() {
  auto layout = std::make_shared<ParameterLayout>();
  layout->add("w", 2, 2);
  layout->add("b", 1, 2);
  const auto set = random_set<float>(layout, 5);
  return serialize_parameters<float>("toy", {{"parameters", &set}});
}

void put_u32(std::string& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    bytes[at + i] = static_cast<char>(value >> (8 * i));
  }
}

void reseal(std::string& bytes) {
  const std::uint64_t sum = fnv1a64(std::string_view(bytes).substr(0, bytes.size() - 8));
  for (int i = 0; i < 8; ++i) {
    bytes[bytes.size() - 8 + i] = static_cast<char>(sum >> (8 * i));
  }
}

TEST_CASE_TEMPLATE("nn serialize: round trip is bit-identical", T, float, double) {
  const auto layout = make_layout(7);
  auto params = random_set<T>(layout, 1);
  params.values()[0] = T(-0.0);
  params.values()[1] = std::numeric_limits<T>::denorm_min();
  params.values()[2] = std::numeric_limits<T>::quiet_NaN();  // raw bits, not judged
  const auto m = random_set<T>(layout, 2);
  const auto v = random_set<T>(layout, 3);
  const std::string config = "gnn-policy input_features=23 hidden=7 heads=policy,value µ";

  TempDir dir;
  const auto path = dir.path / "model.bin";
  save_parameters<T>(path, config, {{"parameters", &params}, {"adam.m", &m}, {"adam.v", &v}});
  const ParameterFile<T> file = load_parameters<T>(path);

  CHECK(file.source == path.string());
  CHECK(file.config == config);
  REQUIRE(file.sets.size() == 3);
  CHECK(file.sets[0].name == "parameters");
  CHECK(file.sets[2].name == "adam.v");
  for (const auto& named : file.sets) {
    require_layout(*layout, named.set.layout(), "model.bin");
    for (std::size_t i = 0; i < layout->tensors().size(); ++i) {
      CHECK(named.set.layout().tensor(i).offset == layout->tensor(i).offset);
    }
  }
  CHECK(bit_identical(file.set("parameters"), params));
  CHECK(bit_identical(file.set("adam.m"), m));
  CHECK(bit_identical(file.set("adam.v"), v));
  const std::string missing = path.string() + ": no parameter set 'adam.w'";
  CHECK_THROWS_WITH_AS(file.set("adam.w"), missing.c_str(), std::runtime_error);

  // The file holds exactly the serialized bytes, and nothing else was left in the folder.
  const std::string bytes =
      serialize_parameters<T>(config, {{"parameters", &params}, {"adam.m", &m}, {"adam.v", &v}});
  CHECK(std::filesystem::file_size(path) == bytes.size());
  CHECK(bit_identical(parse_parameters<T>(bytes, "x").set("adam.m"), m));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path)) {
    ++entries;
  }
  CHECK(entries == 1);
}

TEST_CASE("nn serialize: saving replaces a file atomically") {
  TempDir dir;
  const auto path = dir.path / "model.bin";
  const auto layout = make_layout(3);
  const auto first = random_set<float>(layout, 1);
  const auto second = random_set<float>(layout, 2);
  save_parameters<float>(path, "a", {{"parameters", &first}});
  save_parameters<float>(path, "b", {{"parameters", &second}});
  CHECK(load_parameters<float>(path).config == "b");
  CHECK(bit_identical(load_parameters<float>(path).set("parameters"), second));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path)) {
    CHECK(entry.path().filename() == "model.bin");  // no temporary left beside it
  }
  CHECK_THROWS_AS(load_parameters<float>(dir.path / "missing.bin"), std::runtime_error);
}

TEST_CASE("nn serialize: every single-byte flip is detected") {
  const std::string good = small_file();
  REQUIRE(parse_error(good).empty());
  for (const unsigned mask : {0x01u, 0x80u, 0xffu}) {
    for (std::size_t at = 0; at < good.size(); ++at) {
      std::string bad = good;
      bad[at] = static_cast<char>(static_cast<unsigned char>(bad[at]) ^ mask);
      INFO("byte " << at << " xor " << mask);
      CHECK(parse_error(bad).starts_with("model.bin: "));
    }
  }
}

TEST_CASE("nn serialize: every truncation is detected") {
  const std::string good = small_file();
  for (std::size_t size = 0; size < good.size(); ++size) {
    INFO("size " << size);
    CHECK(parse_error(good.substr(0, size))
              .starts_with("model.bin: truncated at byte " + std::to_string(size) + " "));
  }
}

TEST_CASE("nn serialize: corruptions give messages that say what is wrong") {
  const std::string good = small_file();
  std::string bad = good;
  bad[0] = 'X';
  CHECK(parse_error(bad) == "model.bin: not a memplace GNN parameter file");
  CHECK(parse_error("hello, world") == "model.bin: not a memplace GNN parameter file");

  bad = good;
  put_u32(bad, 8, 2);
  CHECK(parse_error(bad) == "model.bin: unsupported format version 2 (this build reads 1)");
  bad = good;
  put_u32(bad, 12, 2);
  CHECK(parse_error(bad) == "model.bin: unsupported element type 2");
  bad = good;
  put_u32(bad, 12, 8);
  CHECK(parse_error(bad) == "model.bin: holds float64 values, float32 expected");

  bad = good;
  bad[bad.size() - 9] ^= 0x10;  // a value bit
  CHECK(parse_error(bad) == "model.bin: checksum mismatch: the file is corrupt");
  CHECK(parse_error(good + "xy") == "model.bin: 2 trailing bytes after the checksum at byte " +
                                        std::to_string(good.size() - 8));

  // Absurd lengths are refused before anything is allocated.
  bad = good;
  put_u32(bad, 16, 0xffffffffu);  // the config's length
  CHECK(parse_error(bad).starts_with("model.bin: truncated at byte " + std::to_string(good.size()) +
                                     " (reading the config, "));
  bad = good;
  const std::size_t tensor_count = 20 + 3 + 4 + 4 + 10;  // config "toy", set count, "parameters"
  put_u32(bad, tensor_count, 0x7fffffffu);
  CHECK(parse_error(bad).find("set 'parameters', which claims 2147483647 tensors") !=
        std::string::npos);
  bad = good;
  const std::size_t rows = tensor_count + 4 + 4 + 1;  // tensor count, name "w"
  for (int i = 0; i < 8; ++i) {
    bad[rows + i] = static_cast<char>(0xff);
  }
  CHECK(parse_error(bad).find("tensor 'w' of set 'parameters', which claims") != std::string::npos);

  // Sound structure and checksum, but two sets with one name.
  const auto layout = make_layout(2);
  const auto set = random_set<float>(layout, 1);
  bad = serialize_parameters<float>("", {{"aa", &set}, {"ab", &set}});
  bad[bad.find(std::string("\2\0\0\0ab", 6)) + 5] = 'a';
  reseal(bad);
  CHECK(parse_error(bad) == "model.bin: duplicate parameter set 'aa'");
}

TEST_CASE("nn serialize: layout mismatches name the tensor") {
  ParameterLayout expected, found;
  expected.add("encoder.weight", 23, 128);
  expected.add("conv1.weight", 256, 128);
  expected.add("conv1.bias", 1, 128);
  found = expected;
  require_layout(expected, found, "model.bin");

  ParameterLayout wider;
  wider.add("encoder.weight", 23, 128);
  wider.add("conv1.weight", 384, 128);
  wider.add("conv1.bias", 1, 128);
  CHECK_THROWS_WITH_AS(
      require_layout(expected, wider, "model.bin"),
      "model.bin: parameter 'conv1.weight' is 384 x 128 in the file, 256 x 128 expected",
      std::runtime_error);

  ParameterLayout fewer;
  fewer.add("encoder.weight", 23, 128);
  fewer.add("conv1.weight", 256, 128);
  CHECK_THROWS_WITH_AS(require_layout(expected, fewer, "model.bin"),
                       "model.bin: parameter 'conv1.bias' is missing from the file",
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(require_layout(fewer, expected, "model.bin"),
                       "model.bin: unexpected parameter 'conv1.bias' in the file",
                       std::runtime_error);

  ParameterLayout reordered;
  reordered.add("encoder.weight", 23, 128);
  reordered.add("conv1.bias", 1, 128);
  reordered.add("conv1.weight", 256, 128);
  CHECK_THROWS_WITH_AS(
      require_layout(expected, reordered, "model.bin"),
      "model.bin: parameter 1 is 'conv1.bias' in the file, 'conv1.weight' expected",
      std::runtime_error);
}

TEST_CASE("nn serialize: bad arguments and the checksum function") {
  const auto layout = make_layout(2);
  const auto set = random_set<double>(layout, 1);
  const ParameterSet<double> empty;
  CHECK_THROWS_AS(serialize_parameters<double>("", {{"a", &set}, {"a", &set}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(serialize_parameters<double>("", {{"", &set}}), std::invalid_argument);
  CHECK_THROWS_AS(serialize_parameters<double>("", {{"a", nullptr}}), std::invalid_argument);
  CHECK_THROWS_AS(serialize_parameters<double>("", {{"a", &empty}}), std::invalid_argument);

  CHECK(fnv1a64("") == 0xcbf29ce484222325ULL);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

}  // namespace
}  // namespace memplace::nn
