// Workload and hardware files: round trips, and errors that name the file, the line and the field.
#include <doctest/doctest.h>

#include <filesystem>
#include <span>
#include <string>

#include "model/inputs/embedded.hpp"
#include "model/inputs/hardware.hpp"
#include "model/mapping_io.hpp"
#include "model/references.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_CASE("workloads survive a YAML round trip exactly") {
  for (const Workload& w : {toy::chain(), toy::diamond(), toy::random_workload(9, 40)}) {
    const Workload back = Workload::from_yaml(w.to_yaml(), "roundtrip");
    CHECK(back == w);
    CHECK(back.to_yaml() == w.to_yaml());
  }
  for (const std::string& name : embedded_workload_names()) {
    const Workload w = load_workload(name);
    CHECK(Workload::from_yaml(w.to_yaml(), name) == w);
  }
}

TEST_CASE("saving is atomic and loads back") {
  const auto dir = std::filesystem::temp_directory_path() / "memplace_test_save";
  std::filesystem::create_directories(dir);
  const auto path = dir / "chain.yaml";
  toy::chain().save(path);
  CHECK(Workload::load(path) == toy::chain());
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().filename() == "chain.yaml");  // no temporary left behind
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("derived facts: last use, consumers, peak live activations") {
  const Workload w = toy::diamond();
  CHECK(w.last_use(0) == 2);
  CHECK(w.last_use(3) == 3);
  CHECK(std::vector<std::size_t>(w.consumers(0).begin(), w.consumers(0).end()) ==
        std::vector<std::size_t>{1, 2});
  CHECK(w.num_edges() == 4);
  CHECK(w.peak_live_activation_bytes() == 400);
  CHECK(w.total_macs() == 40);
  CHECK(w.find("C") == 2);
  CHECK_FALSE(w.find("Z").has_value());
}

TEST_CASE("workload errors name the line and the field") {
  const std::string head = "name: t\nlayers:\n  - name: A\n    op: conv\n";
  CHECK(error_of([&] { Workload::from_yaml(head + "    output_bytes: -1\n", "t.yaml"); }) ==
        "t.yaml:5: layers[0].output_bytes: must be non-negative, got '-1'");
  CHECK(error_of([&] {
          Workload::from_yaml(head + "    output_bytes: 1\n    macs: .nan\n", "t.yaml");
        }) == "t.yaml:6: layers[0].macs: must be finite, got '.nan'");
  CHECK(error_of([&] { Workload::from_yaml(head, "t.yaml"); }) ==
        "t.yaml:3: layers[0].output_bytes: missing required field");
  CHECK(error_of([&] {
          Workload::from_yaml("name: t\nlayers: [\n", "t.yaml");
        }).starts_with("t.yaml:3: YAML syntax error"));
  CHECK(error_of([&] { Workload::from_yaml("", "t.yaml"); }) == "t.yaml: empty document");
  CHECK(error_of([&] { Workload::from_yaml("- a\n- b\n", "t.yaml"); }) ==
        "t.yaml:1: document: expected a map, got a list");
  CHECK(error_of([&] {
          Workload::from_yaml(head + "    output_bytes: 1\n    inputs: [{layer: A, bytes: 1}]\n",
                              "t.yaml");
        }) == "t.yaml:6: layers[0].inputs[0].layer: a layer cannot read itself");
}

TEST_CASE("sizes accept integral scientific notation and keep big integers exact") {
  const std::string head = "name: t\nlayers:\n  - name: A\n    op: conv\n    output_bytes: ";
  CHECK(Workload::from_yaml(head + "4.09e9\n", "t").layer(0).output_bytes == 4'090'000'000);
  CHECK(Workload::from_yaml(head + "9007199254740993\n", "t").layer(0).output_bytes ==
        9'007'199'254'740'993);
  CHECK(Workload::from_yaml(head + "0x10\n", "t").layer(0).output_bytes == 16);
  CHECK(error_of([&] { Workload::from_yaml(head + "1e17\n", "t"); }) ==
        "t:5: layers[0].output_bytes: too large to be exact in this notation; write it as a plain "
        "integer");
  CHECK(error_of([&] { Workload::from_yaml(head + "99999999999999999999\n", "t"); }) ==
        "t:5: layers[0].output_bytes: too large, got '99999999999999999999'");
}

TEST_CASE("the in-memory constructor validates too") {
  std::vector<Layer> layers(2);
  layers[0].name = "A";
  layers[1].name = "A";
  CHECK(error_of([&] {
          Workload(WorkloadInfo{"w", "", "", 1}, layers, "code");
        }) == "code: layers[1].name: duplicate layer name 'A' (first used by layers[0])");
  layers[1].name = "B";
  layers[1].inputs = {{5, 1}};
  CHECK(error_of([&] {
          Workload(WorkloadInfo{"w", "", "", 1}, layers, "code");
        }) == "code: layers[1].inputs[0]: refers to a layer that does not exist");
  layers[1].inputs = {};
  layers[0].macs = -1;
  CHECK(error_of([&] {
          Workload(WorkloadInfo{"w", "", "", 1}, layers, "code");
        }) == "code: layers[0].macs: must be non-negative");
}

// Times are int64 femtoseconds and counts are summed in int64: what would pass either range is
// refused by name (the fuzzer found both overflows: a 2e17-byte weight, a 1 byte/s memory).
TEST_CASE("counts and times beyond int64's range are refused, naming what passes it") {
  const std::string two_layers =
      "name: t\nlayers:\n"
      "  - {name: A, op: conv, output_bytes: 1, weight_bytes: 2000000000000000000}\n"
      "  - name: B\n    op: conv\n    output_bytes: 1\n"
      "    weight_bytes: 1000000000000000000\n";
  CHECK(error_of([&] { Workload::from_yaml(two_layers, "t.yaml"); }) ==
        "t.yaml:7: layers[1].weight_bytes: the workload's bytes would sum past 2^62 (4.6e18) with "
        "this count; is it a typo?");
  // weight_traffic_bytes, left out, counts weight_bytes a second time
  CHECK(error_of([&] {
          Workload::from_yaml(
              "name: t\nlayers:\n  - {name: A, op: conv, output_bytes: 1,\n"
              "     weight_bytes: 3000000000000000000}\n",
              "t.yaml");
        }) ==
        "t.yaml:4: layers[0].weight_traffic_bytes (weight_bytes, by default): the "
        "workload's bytes would sum past 2^62 (4.6e18) with this count; is it a typo?");
  const std::string edge =
      "name: t\nlayers:\n"
      "  - {name: A, op: conv, output_bytes: 1}\n"
      "  - {name: B, op: conv, output_bytes: 1, inputs: [{layer: A, bytes: "
      "4611686018427387904}]}\n";
  CHECK(error_of([&] { Workload::from_yaml(edge, "t.yaml"); }) ==
        "t.yaml:4: layers[1].inputs[0].bytes: the workload's bytes would sum past 2^62 (4.6e18) "
        "with this count; is it a typo?");
  std::vector<Layer> layers(2);
  layers[0].name = "A";
  layers[1].name = "B";
  layers[0].macs = layers[1].macs = 3'000'000'000'000'000'000;
  CHECK(error_of([&] {
          Workload(WorkloadInfo{"w", "", "", 1}, layers, "code");
        }) ==
        "code: layers[1].macs: the workload's MACs would sum past 2^62 (4.6e18) with this count; "
        "is it a typo?");
  layers[1].macs = 1;  // 3e18 MACs alone fit the sums, not the clock
  CHECK(error_of([&] {
          Simulator(Workload(WorkloadInfo{"w", "", "", 1}, layers, "code"), load_hardware("nnpi"));
        }).starts_with("workload 'w' on hardware 'nnpi': a mapping could take up to "));

  // A memory of a byte a second makes the toy chain's 1550 bytes take 26 minutes.
  Hardware slow = toy::hardware();
  slow.memories[toy::S].bandwidth_bytes_per_s = 1;
  const std::string refused = error_of([&] { Simulator(toy::chain(), slow); });
  CHECK(refused.starts_with("workload 'chain' on hardware 'toy': a mapping could take up to "));
  CHECK(refused.find("(layer 'A' alone ") != std::string::npos);
  CHECK(refused.find("beyond the 576 s the simulator's femtosecond clock can count") !=
        std::string::npos);
  Hardware huge = toy::hardware();
  huge.memories[toy::S].capacity_bytes = 3'000'000'000'000'000'000;
  huge.memories[toy::F].capacity_bytes = 2'000'000'000'000'000'000;
  CHECK(error_of([&] { huge.validate("toy.yaml"); }) ==
        "toy.yaml: memories[1].capacity_bytes: the memories' capacities would sum past 2^62 "
        "(4.6e18) with this one; is it a typo?");
  // Every shipped workload fits every shipped chip.
  for (const std::string& workload : embedded_names(embedded_workloads()))
    for (const std::string& chip : embedded_hardware_names())
      CHECK_NOTHROW(Simulator(load_workload(workload), load_hardware(chip)));
}

TEST_CASE("hardware files round trip and validate") {
  const Hardware nnpi = load_hardware("nnpi");
  CHECK(nnpi.memories.size() == 3);
  CHECK(nnpi.memories[0].capacity_bytes == 4 * 1024 * 1024);
  CHECK(nnpi.memories[2].bandwidth_bytes_per_s == 67.2e9);
  CHECK(Hardware::from_yaml(nnpi.to_yaml(), "nnpi") == nnpi);
  const Hardware toy = toy::hardware();
  CHECK(Hardware::from_yaml(toy.to_yaml(), "toy") == toy);
  CHECK(error_of([] {
          load_hardware("no-such-hardware");
        }).starts_with("no-such-hardware: no such hardware file"));
}

// load_hardware parses a shipped chip once and copies it after (model/inputs/hardware.cpp):
// loads in any order must each give that chip, as a fresh parse of its own file does.
TEST_CASE("shipped chips load as their own file parses, however often and in any order") {
  const std::span<const EmbeddedFile> shipped = embedded_hardware();
  REQUIRE(shipped.size() >= 2);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t k = 0; k < shipped.size(); ++k) {
      const EmbeddedFile& file = shipped[round == 0 ? k : shipped.size() - 1 - k];
      CAPTURE(file.name);
      const Hardware loaded = load_hardware(file.name);
      CHECK(loaded == Hardware::from_yaml(file.text, std::string(file.name) + ".yaml"));
      CHECK(loaded.name == file.name);
    }
  }
}

TEST_CASE("mapping files round trip, with the recorded result") {
  const Simulator sim(toy::chain(), toy::hardware());
  const Mapping m{0, 1, 1, 0, 1, 1};
  const RecordedResult recorded{sim.evaluate(m).latency_fs, true};
  const std::string text = mapping_to_yaml(sim, m, recorded);
  const MappingFile file = parse_mapping(text, "m.yaml", sim);
  CHECK(file.mapping == m);
  REQUIRE(file.recorded.has_value());
  CHECK(file.recorded->latency_fs == recorded.latency_fs);
  CHECK(file.header.model.workload == "chain");
  CHECK(file.header.model.hardware == "toy");
}

}  // namespace
}  // namespace memplace
