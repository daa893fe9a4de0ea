// The fuzz targets (docs/reliability.md): one per loader of a file a user or a cluster hands
// memplace, each fed the input as that file's bytes and, where the file is accepted, taken one
// step further (a workload or a chip is simulated, a problem packed, a checkpoint resumed).
// One executable holds them all; the environment variable MEMPLACE_FUZZ_TARGET names the one it
// runs (libFuzzer's worker processes inherit it). An input may be refused only with an InputError —
// memplace's bad input, exit code 2 with the file, line and field; any other exception (it ends in
// std::terminate), crash, hang, leak or sanitizer report is a finding.
#include <unistd.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "agents/nn/gnn_file.hpp"
#include "agents/registry.hpp"
#include "agents/training/train_config.hpp"
#include "agents/training/trainer.hpp"
#include "allocation/csv.hpp"
#include "allocation/packer.hpp"
#include "allocation/packing_check.hpp"
#include "base/errors.hpp"
#include "base/state_archive.hpp"
#include "experiments/leaderboard/submission.hpp"
#include "experiments/table/table_config.hpp"
#include "experiments/table/table_runner.hpp"
#include "model/inputs/suite.hpp"
#include "model/mapping_io.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"
#include "optimum/certificate.hpp"
#include "workloads/tools/onnx_import.hpp"

namespace memplace::fuzz {
namespace {

namespace fs = std::filesystem;

// A two-layer workload for the chips under test (simulating ResNet-50 per input is too slow).
constexpr std::string_view kTinyWorkload = R"(name: tiny
element_bytes: 1
layers:
  - {name: a, op: conv, macs: 1000, weight_bytes: 4096, output_bytes: 2048, external_input_bytes: 64}
  - {name: b, op: matmul, macs: 1000, weight_bytes: 4096, output_bytes: 2048,
     inputs: [{layer: a, bytes: 2048}]}
)";

const Simulator& resnet50_on_nnpi() {
  static const Simulator sim(load_workload("resnet50"), load_hardware("nnpi"));
  return sim;
}

// A folder of this process's own, for the loaders that read a path, removed when the process
// ends normally (a crash leaves it, beside its finding). scripts/fuzz.sh points TMPDIR at a
// RAM-backed folder: on a disk the scratch files' writes were most of some targets' time.
const fs::path& scratch() {
  struct Folder {
    fs::path path = fs::temp_directory_path() / ("memplace-fuzz-" + std::to_string(::getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Folder folder;
  return folder.path;
}

fs::path write_scratch(const std::string& name, std::string_view bytes) {
  const fs::path path = scratch() / name;
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

// The accepted workload or chip is simulated with the compiler's mapping under the pinned and the
// streaming dynamics, and the streaming compiler's mapping under the addressed ones (the addressed
// compiler packs every candidate it tries: seconds per input on ResNet-50 under the sanitizers,
// which libFuzzer reported as a timeout).
void simulate(const Workload& workload, const Hardware& hardware) {
  auto simulator = [&](Dynamics dynamics) {
    return Simulator(workload, hardware, {.memory_time = std::nullopt, .dynamics = dynamics});
  };
  const Simulator pinned = simulator(Dynamics::pinned);
  pinned.evaluate(compiler_mapping(pinned));
  const Simulator streaming = simulator(Dynamics::streaming);
  const Mapping mapping = compiler_mapping(streaming);
  streaming.evaluate(mapping);
  simulator(Dynamics::addressed).evaluate(mapping);
}

// Accepted workloads of up to this many layers are simulated too. The simulator's paths are the
// same at any size, and simulating every mutant of the ResNet seeds (57 layers, three dynamics)
// held the target at about 35 inputs a second under the sanitizers.
constexpr std::size_t kSimulatedLayers = 16;

void workload_yaml(std::string_view text) {
  const Workload workload = Workload::from_yaml(text, "fuzz.yaml");
  static const Hardware nnpi = load_hardware("nnpi");
  if (workload.size() <= kSimulatedLayers) simulate(workload, nnpi);
}

// The tiny workload is parsed once: parsing it for every input was 40 % of the target's time.
void hardware_yaml(std::string_view text) {
  static const Workload tiny = Workload::from_yaml(kTinyWorkload, "tiny.yaml");
  simulate(tiny, Hardware::from_yaml(text, "fuzz.yaml"));
}

void mapping_file(std::string_view text) {
  const Simulator& sim = resnet50_on_nnpi();
  sim.evaluate(parse_mapping(text, "fuzz.yaml", sim).mapping);
}

// Under both ways a layer's transfers combine, so that the shipped certificates of either (their
// seeds) are accepted and the fuzzer gets past the check that the certificate fits the simulator.
void certificate(std::string_view text) {
  static const Simulator summed(load_workload("resnet50"), load_hardware("nnpi"),
                                SimulatorOptions{.memory_time = MemoryTimeCombine::sum});
  try {
    optimum::parse_certificate(text, "fuzz.yaml", resnet50_on_nnpi());
  } catch (const InputError&) {
    optimum::parse_certificate(text, "fuzz.yaml", summed);
  }
}

void suite_yaml(std::string_view text) {
  parse_suite(text, "fuzz.yaml");
}

void table_config(std::string_view text) {
  experiments::TableConfig config = experiments::TableConfig::parse_yaml(text, "fuzz.yaml");
  config.resolve();
}

void train_config(std::string_view text) {
  agents::TrainConfig config = agents::TrainConfig::parse_yaml(text, "fuzz.yaml");
  config.resolve();
}

void table_result(std::string_view text) {
  experiments::parse_result_yaml(text, "result.yaml");
}

void submission_yaml(std::string_view text) {
  experiments::Submission::parse_yaml(text, "submission.yaml");
}

// An accepted problem is packed (a few thousand placements) and the packing checked.
void allocation_csv(std::string_view text) {
  const allocation::CsvContents contents = allocation::parse_allocation_csv(text, "fuzz.csv");
  allocation::Problem problem{contents.buffers, 0, 1};
  for (const allocation::Buffer& b : problem.buffers)
    problem.capacity += b.size;
  if (contents.offsets) allocation::packing_faults(problem, *contents.offsets);
  const allocation::PackResult r = allocation::pack(problem, {.seconds = 1, .placements = 2000});
  if (!r.offsets.empty() && !allocation::packing_faults(problem, r.offsets).empty())
    throw std::logic_error("pack returned an invalid packing");
}

void gnn_file(std::string_view bytes) {
  agents::load_gnn(write_scratch("policy.gnn", bytes));
}

// A training run's checkpoint: each input replaces the checkpoint.bin of a short run's folder and
// resumes it. One run per registered agent, so that every agent's saved state is fuzzed: the
// input goes to the run whose agent its config record names ("agent: ppo"), the cheapest agent's
// (AgentInfo::run_cost) when it names none. Their checkpoints are the seeds
// (fuzz/corpus/checkpoint, written by fuzz/corpus/regenerate.sh from the same configs). The
// workload is a procedural CNN of 12 layers, built in microseconds without a file: on ResNet-50,
// loading the workload again for every resume held the target at 35-100 inputs a second.
//
// The GNNs at their smallest, so that the seeds stay small (kilobytes, not megabytes).
std::string checkpoint_run_config(const agents::AgentInfo& agent) {
  return "agent: " + agent.name + "\nworkload: procedural-cnn-s10\nbudget: 100\nthreads: 1\n" +
         (agent.has_policy ? "hyperparameters: {hidden: 2, conv_layers: 1}\n" : "");
}

const agents::AgentInfo& cheapest_agent() {
  const auto& registry = agents::agent_registry();
  return *std::min_element(registry.begin(), registry.end(), [](const auto& a, const auto& b) {
    return a.run_cost.seconds_at_20000(100) < b.run_cost.seconds_at_20000(100);
  });
}

void checkpoint(std::string_view bytes) {
  static std::map<std::string, fs::path> runs;  // made on first use
  const agents::AgentInfo* agent = &cheapest_agent();
  for (const agents::AgentInfo& info : agents::agent_registry()) {
    if (bytes.find("agent: " + info.name + "\n") != std::string_view::npos) {
      agent = &info;
      break;
    }
  }
  auto [run, fresh] = runs.try_emplace(agent->name, scratch() / ("run-" + agent->name));
  if (fresh) {
    agents::Trainer(agents::TrainConfig::parse_yaml(checkpoint_run_config(*agent), "run.yaml"),
                    run->second)
        .run();
  }
  write_scratch("run-" + agent->name + "/checkpoint.bin", bytes);
  agents::Trainer::resume(run->second);
}

// Symbolic input dims (the batch of the shipped fixtures) set to 1, as `memplace import
// --dynamic-dim 1` does: left symbolic, every shipped model would be refused at its first layer
// and the fuzzer would explore only that error.
void onnx_model(std::string_view bytes) {
  ImportOptions options;
  options.dynamic_dim = 1;
  import_onnx(write_scratch("model.onnx", bytes), options);
}

using Loader = void (*)(std::string_view);

const std::map<std::string_view, Loader>& loaders() {
  static const std::map<std::string_view, Loader> all = {{"workload_yaml", workload_yaml},
                                                         {"hardware_yaml", hardware_yaml},
                                                         {"mapping_file", mapping_file},
                                                         {"certificate", certificate},
                                                         {"suite_yaml", suite_yaml},
                                                         {"table_config", table_config},
                                                         {"train_config", train_config},
                                                         {"table_result", table_result},
                                                         {"submission_yaml", submission_yaml},
                                                         {"allocation_csv", allocation_csv},
                                                         {"gnn_file", gnn_file},
                                                         {"checkpoint", checkpoint},
                                                         {"onnx_model", onnx_model}};
  return all;
}

Loader chosen = nullptr;

}  // namespace
}  // namespace memplace::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using memplace::fuzz::loaders;
  const char* name = std::getenv("MEMPLACE_FUZZ_TARGET");
  const auto it = loaders().find(name ? name : "");
  if (it == loaders().end()) {
    std::string names;
    for (const auto& [target, loader] : loaders())
      names += " " + std::string(target);
    std::fprintf(stderr, "MEMPLACE_FUZZ_TARGET must name a fuzz target:%s\n", names.c_str());
    std::exit(2);
  }
  memplace::fuzz::chosen = it->second;
  return 0;
}

// Inputs refused as bad input so far (replay_main.cpp checks that the seeds memplace writes
// itself are accepted: a refused seed leaves the fuzzer only the error paths to explore).
extern "C" {
std::size_t memplace_fuzz_refused = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    memplace::fuzz::chosen(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const memplace::InputError&) {
    ++memplace_fuzz_refused;  // refused as bad input, as it should be
  }
  return 0;
}
