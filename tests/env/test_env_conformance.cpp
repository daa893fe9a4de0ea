// The shared conformance test (as OpenSpiel's basic tests run every game): every registered
// environment family, at every version, on every shipped workload, every shipped hardware model,
// workload and hardware files, and under every value of each of its own options, passes the
// checker. It reads the families from the registry, so a new family is checked without an edit
// here (docs/envs/README.md, "Adding an environment").
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "env/checker.hpp"
#include "env/registry.hpp"
#include "model/inputs/hardware.hpp"
#include "tests/support/problem_list.hpp"
#include "tests/support/sanitized.hpp"

namespace memplace {
namespace {

const std::string kChain = MEMPLACE_SOURCE_DIR "/tests/data/good/chain.yaml";
const std::string kToyHardware = MEMPLACE_SOURCE_DIR "/tests/data/good/toy-hw.yaml";

using testing::joined;

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

// memplace/<kind>[/<workload>[@<hardware>]]-<version>.
std::string env_id(const EnvFamily& family, ModelVersion version, const std::string& workload = "",
                   const std::string& hardware = std::string(kDefaultHardware)) {
  std::string id = "memplace/" + family.kind;
  if (!workload.empty()) id += "/" + workload;
  if (!workload.empty() && hardware != kDefaultHardware) id += "@" + hardware;
  return id + "-" + std::string(version_name(version));
}

TEST_CASE("conformance: every registered id with a shipped workload on the default hardware") {
  std::size_t checked = 0;
  for (const EnvSpec& spec : registered_envs()) {
    // The ids on the other hardware models run the same code on other numbers; one workload
    // each is checked below.
    if (spec.workload.empty() || spec.hardware != kDefaultHardware || !spec.suite.empty()) continue;
    check_conforms(spec.id, {}, 2);
    ++checked;
  }
  std::size_t versions = 0;
  for (const EnvFamily& family : env_families())
    versions += family.versions.size();
  CHECK(checked == versions * embedded_workload_names().size());
}

TEST_CASE("conformance: every shipped hardware model, every family and version, on one workload") {
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
    for (const EnvFamily& family : env_families())
      for (const ModelVersion version : family.versions) {
        const std::string id = env_id(family, version, "mobilenet-v2", name);
        check_conforms(id, {}, 1);
        CHECK(make(id)->options().at("hardware") == name);
      }
  }
}

TEST_CASE("conformance: every generic id with workload and hardware files") {
  for (const EnvFamily& family : env_families())
    for (const ModelVersion version : family.versions) {
      const std::string id = env_id(family, version);
      check_conforms(id, {{"workload", kChain}}, 3);
      check_conforms(id, {{"workload", kChain}, {"hardware", kToyHardware}}, 3);
      check_conforms(id, {{"workload", kChain}, {"hardware", kToyHardware}, {"memory_time", "sum"}},
                     3);
    }
}

// Every value of every option with a list of values (the family's own and the model's), one at a
// time, and all the non-default ones together.
TEST_CASE("conformance: every family under every value of each of its options") {
  for (const EnvFamily& family : env_families())
    for (const ModelVersion version : family.versions)
      for (const char* workload : {"resnet50", "bert-base"}) {
        // Every option value on both workloads; under the sanitizers on the smaller one.
        if (testing::kSanitized && std::string_view(workload) != "resnet50") continue;
        const std::string id = env_id(family, version, workload);
        OptionMap others;
        for (const OptionSpec& option : env_option_specs(id))
          for (const std::string& value : option.choices) {
            if (value == option.default_value) continue;
            check_conforms(id, {{option.name, value}}, 1);
            others[option.name] = value;
          }
        check_conforms(id, others, 1);
        // The toy files with every non-default value: small enough for many episodes.
        others["workload"] = kChain;
        others["hardware"] = kToyHardware;
        check_conforms(env_id(family, version), others, 3);
      }
}

}  // namespace
}  // namespace memplace
