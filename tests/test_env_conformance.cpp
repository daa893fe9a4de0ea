// The shared conformance test (as OpenSpiel's basic tests run every game): every registered
// environment, under its default and its non-default options, passes the checker.
#include <doctest/doctest.h>

#include <string>

#include "env/checker.hpp"
#include "env/model/hardware.hpp"
#include "env/registry.hpp"

namespace memplace {
namespace {

const std::string kChain = MEMPLACE_SOURCE_DIR "/tests/data/good/chain.yaml";
const std::string kToyHardware = MEMPLACE_SOURCE_DIR "/tests/data/good/toy-hw.yaml";

std::string joined(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems)
    out += "\n  " + p;
  return out;
}

// Episodes per check: the big workloads' sequential episodes are ~600 steps, each one checked.
void check_conforms(const std::string& id, const OptionMap& options = {},
                    std::size_t episodes = 2) {
  std::unique_ptr<Env> env = make(id, options);
  std::string described = id;
  for (const auto& [name, value] : options)
    described += " " + name + "=" + value;
  CAPTURE(described);
  const std::vector<std::string> problems =
      check_env(*env, {.episodes = episodes, .seed = 11, .make_fresh = {}, .max_problems = 20});
  CHECK_MESSAGE(problems.empty(), described << ":" << joined(problems));
}

void check_registered(const std::string& kind) {
  std::size_t checked = 0;
  for (const EnvSpec& spec : registered_envs()) {
    // The ids on the other hardware models run the same code on other numbers; one workload
    // each is checked below.
    if (spec.kind != kind || spec.workload.empty() || !spec.hardware.empty()) continue;
    check_conforms(spec.id, {}, 2);
    ++checked;
  }
  CHECK(checked >= 3);  // at least the paper workloads
}

TEST_CASE("conformance: every single-step id with a shipped workload") {
  check_registered("single-step");
}

TEST_CASE("conformance: every sequential id with a shipped workload") {
  check_registered("sequential");
}

TEST_CASE("conformance: every shipped hardware model, on one workload under both versions") {
  const std::vector<std::string> shipped = embedded_hardware_names();
  CHECK(shipped.size() >= 4);
  for (const std::string& name : shipped) {
    CAPTURE(name);
    // The shipped text and the file in the source tree load to the same valid model, and it
    // survives a round trip through YAML.
    const Hardware hw = load_hardware(name);
    CHECK(hw == Hardware::load(MEMPLACE_SOURCE_DIR "/workloads/hardware/" + name + ".yaml"));
    CHECK_NOTHROW(hw.validate(name));
    CHECK(Hardware::from_yaml(hw.to_yaml(), name) == hw);
    for (const char* family : {"single-step", "sequential"})
      for (const char* version : {"v0", "v1"}) {
        const std::string suffix = name == kDefaultHardware ? "" : "@" + name;
        const std::string id =
            std::string("memplace/") + family + "/mobilenet-v2" + suffix + "-" + version;
        check_conforms(id, {}, 1);
        CHECK(make(id)->options().at("hardware") == name);
      }
  }
}

TEST_CASE("conformance: the generic ids with workload and hardware files") {
  for (const char* id : {"memplace/single-step-v0", "memplace/sequential-v0"}) {
    check_conforms(id, {{"workload", kChain}}, 3);
    check_conforms(id, {{"workload", kChain}, {"hardware", kToyHardware}}, 3);
    check_conforms(id, {{"workload", kChain}, {"hardware", kToyHardware}, {"memory_time", "sum"}},
                   3);
  }
}

TEST_CASE("conformance: single-step with non-default options") {
  for (const char* id :
       {"memplace/single-step/resnet101-v0", "memplace/single-step/bert-base-v0"}) {
    check_conforms(id, {{"reward", "log-speedup"}, {"invalid", "rectify"}}, 2);
    check_conforms(id, {{"reward", "egrl"}, {"memory_time", "sum"}}, 2);
  }
  const std::string id = "memplace/single-step/resnet50-v0";
  check_conforms(id, {{"reward", "log-speedup"}}, 3);
  check_conforms(id, {{"reward", "egrl"}}, 3);
  check_conforms(id, {{"invalid", "rectify"}}, 3);
  check_conforms(id, {{"invalid", "rectify"}, {"reward", "egrl"}, {"memory_time", "sum"}}, 3);
  check_conforms("memplace/single-step-v0",
                 {{"workload", kChain}, {"hardware", kToyHardware}, {"invalid", "rectify"}}, 3);
}

TEST_CASE("conformance: sequential with non-default options") {
  for (const char* id : {"memplace/sequential/resnet101-v0", "memplace/sequential/bert-base-v0"}) {
    check_conforms(id, {{"order", "msa"}, {"reward", "terminal"}}, 1);
    check_conforms(id, {{"memory_time", "sum"}}, 1);
  }
  const std::string id = "memplace/sequential/resnet50-v0";
  check_conforms(id, {{"order", "msa"}});
  check_conforms(id, {{"reward", "terminal"}});
  check_conforms(id, {{"memory_time", "sum"}});
  check_conforms(id, {{"order", "msa"}, {"reward", "terminal"}, {"memory_time", "sum"}});
  check_conforms("memplace/sequential-v0",
                 {{"workload", kChain}, {"hardware", kToyHardware}, {"order", "msa"}}, 3);
}

}  // namespace
}  // namespace memplace
