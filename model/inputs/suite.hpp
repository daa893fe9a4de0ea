// A benchmark suite (workloads/suite/v1.yaml, docs/suite.md): instances — a workload at a shape on
// a hardware model — split by model family into dev instances, for tuning and developing agents,
// and test instances, which are reported. The suite names how each workload is imported from its
// ONNX fixture (shapes as `--dim`s, static inputs, element type); the imported files ship in
// workloads/suite/workloads/ and load by name like the shipped workloads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace memplace {

enum class Split : std::uint8_t { dev, test };
std::string_view split_name(Split split);
// "dev" or "test"; nullopt for anything else.
std::optional<Split> split_from_name(std::string_view name);

// A model family: one series of one publisher (Llama 3.2, Qwen2.5, BERT and its distillation).
// Every model of a family is on the same side of the split, so no test model has a sibling in dev.
struct SuiteFamily {
  std::string name;
  Split split = Split::test;
  std::string about;  // its members, and why they are one family
};

// A model and the published configuration it is built from (workloads/tools/architectures/).
struct SuiteModel {
  std::string name;
  std::string family;
  std::string config;  // the source configuration and the published parameter count
};

// The dims a suite workload may give, in the order its name spells them.
inline constexpr std::pair<std::string_view, std::string_view> kSuiteDims[] = {
    {"batch", "b"}, {"sequence", "s"}, {"kv_length", "kv"}};

struct SuiteWorkload {
  std::string name;     // the naming convention: see conventional_name
  std::string model;    // a SuiteModel's name
  std::string phase;    // which graph of the model: prefill, decode, encode; empty if it has one
  std::string fixture;  // workloads/onnx/<fixture>.onnx; by default <model>[-<phase>]
  std::vector<std::pair<std::string, std::int64_t>> dims;  // in kSuiteDims' order
  std::vector<std::string> static_inputs;                  // `memplace import --static-input`
  std::string element_type = "int8";
};

// "<model>[-<phase>]-b<batch>[-s<sequence>][-kv<kv_length>][-<element type unless int8>]":
// "llama-3.2-1b-decode-b1-kv2048", "bert-large-b16-s128-bf16".
std::string conventional_name(const SuiteWorkload& w);

struct SuiteInstance {
  std::string workload;
  std::string hardware;
  std::string id() const { return workload + "@" + hardware; }
};

struct Suite {
  std::string name;        // "v1"
  std::string cost_model;  // the environments' version its instances are scored under ("v1")
  std::string origin;      // where it was read from, for messages
  std::vector<SuiteFamily> families;
  std::vector<SuiteModel> models;
  std::vector<SuiteWorkload> workloads;
  std::vector<SuiteInstance> instances;

  // By name; std::out_of_range for a name the suite does not have (validated on loading).
  const SuiteWorkload& workload(std::string_view name) const;
  const SuiteModel& model(std::string_view name) const;
  const SuiteFamily& family(std::string_view name) const;
  Split split(const SuiteInstance& instance) const;
  // "decode, batch 1, KV cache 2048, int8"
  static std::string shape(const SuiteWorkload& w);
  // The model's configuration and the shape: "Llama 3.2 1B (meta-llama/...); decode, batch 1, ..."
  std::string description(const SuiteWorkload& w) const;
  // "memplace import workloads/onnx/<fixture>.onnx --dim batch=1 ... (suite v1)"
  std::string source(const SuiteWorkload& w) const;
};

// Parses a suite; InputError naming the file, line and field for anything malformed: unknown
// keys, a name off the convention, a family without a split, an instance whose workload the
// suite does not list, duplicates. Hardware names are not checked here (the commands load them).
Suite parse_suite(std::string_view text, std::string origin);
// A shipped suite by name ("v1") or a suite file.
Suite load_suite(std::string_view name_or_path);
// The shipped suites (workloads/suite/*.yaml), newest last.
std::vector<std::string> embedded_suite_names();

}  // namespace memplace
