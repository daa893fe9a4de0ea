// Saving and loading whole GNNs (agents/nn/gnn_file.hpp), on the state archive's format.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "agents/nn/gnn_file.hpp"
#include "base/errors.hpp"
#include "base/state_archive.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

nn::GnnConfig config() {
  nn::GnnConfig c{.input_features = 23, .hidden = 8, .conv_layers = 2, .memories = 3};
  c.value_head = true;
  return c;
}

TEST_CASE("gnn file: a saved model loads back identical") {
  testing::TempDir dir;
  const nn::Gnn<float> model(config(), 42);
  agents::save_gnn(dir.path / "model.gnn", model);
  const nn::Gnn<float> loaded = agents::load_gnn(dir.path / "model.gnn", config());
  CHECK(loaded.config() == config());
  CHECK(std::equal(model.parameters().values().begin(), model.parameters().values().end(),
                   loaded.parameters().values().begin(), loaded.parameters().values().end()));
}

TEST_CASE("gnn file: a missing, foreign, corrupt or mismatched file is named") {
  testing::TempDir dir;
  CHECK_THROWS_WITH_AS(agents::load_gnn(dir.path / "absent.gnn"), doctest::Contains("absent.gnn"),
                       InputError);

  nn::GnnConfig other = config();
  other.hidden = 16;
  agents::save_gnn(dir.path / "other.gnn", nn::Gnn<float>(other, 1));
  CHECK_THROWS_WITH_AS(agents::load_gnn(dir.path / "other.gnn", config()),
                       doctest::Contains("holds a GNN with input_features=23 hidden=16"),
                       InputError);

  // An archive that is not a GNN (a checkpoint, say).
  StateWriter foreign;
  foreign.put("trainer.config", std::string_view("agent: sa"));
  foreign.save(dir.path / "foreign.gnn");
  CHECK_THROWS_WITH_AS(agents::load_gnn(dir.path / "foreign.gnn"),
                       doctest::Contains("expected record 'gnn.config'"), InputError);
  StateWriter not_gnn;
  not_gnn.put("gnn.config", std::string_view("some-other-model"));
  not_gnn.save(dir.path / "not-gnn.gnn");
  CHECK_THROWS_WITH_AS(agents::load_gnn(dir.path / "not-gnn.gnn"),
                       doctest::Contains("not a memplace GNN"), InputError);

  // The config says hidden=16 but the parameters are another model's: their count is named.
  StateWriter mixed;
  mixed.put("gnn.config", agents::gnn_file_config(other));
  const nn::Gnn<float> small(config(), 2);
  mixed.put_array<float>("gnn.parameters", small.parameters().values());
  mixed.save(dir.path / "mixed.gnn");
  CHECK_THROWS_WITH_AS(agents::load_gnn(dir.path / "mixed.gnn"),
                       doctest::Contains("record 'gnn.parameters' holds"), InputError);

  agents::save_gnn(dir.path / "model.gnn", nn::Gnn<float>(config(), 3));
  {
    std::fstream f(dir.path / "model.gnn", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(200);
    f.put('\x7f');
  }
  CHECK_THROWS_WITH_AS(agents::load_gnn(dir.path / "model.gnn"),
                       doctest::Contains("model.gnn: checksum mismatch"), InputError);
}

TEST_CASE("gnn file: a policy's spec is saved with it, read back, and a bad one is named") {
  testing::TempDir dir;
  const nn::Gnn<float> model(config(), 5);
  const agents::PolicySpec spec{.agent = "ppo",
                                .env_version = ModelVersion::v1,
                                .hardware = "edge-tpu",
                                .features = "observation"};
  CHECK(spec.to_string() == "agent=ppo env_version=v1 hardware=edge-tpu features=observation");
  CHECK(agents::PolicySpec::parse(spec.to_string()) == spec);
  agents::save_gnn(dir.path / "policy.gnn", model, spec);
  const agents::PolicyFile file = agents::load_policy(dir.path / "policy.gnn");
  REQUIRE(file.spec);
  CHECK(*file.spec == spec);
  CHECK(std::equal(model.parameters().values().begin(), model.parameters().values().end(),
                   file.gnn.parameters().values().begin(), file.gnn.parameters().values().end()));
  // A file without one loads as before, with no spec; load_gnn reads both.
  agents::save_gnn(dir.path / "bare.gnn", model);
  CHECK_FALSE(agents::load_policy(dir.path / "bare.gnn").spec);
  CHECK(agents::load_gnn(dir.path / "policy.gnn").config() == config());

  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"agent=ppo env_version=v1 hardware=nnpi", "key 'features' missing"},
           {"agent=ppo env_version=v9 hardware=nnpi features=observation", "env_version"},
           {"agent=ppo agent=sac env_version=v1 hardware=nnpi features=observation", "repeated"},
           {"agent=ppo env_version=v1 hardware=nnpi features=observation chip=x", "unknown key"},
           {"agent ppo", "is not key=value"}}) {
    StateWriter out;
    out.put("gnn.config", agents::gnn_file_config(model.config()));
    out.put_array<float>("gnn.parameters", model.parameters().values());
    out.put("gnn.policy_spec", text);
    out.save(dir.path / "bad.gnn");
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(agents::load_policy(dir.path / "bad.gnn"),
                         doctest::Contains("bad.gnn: policy spec: "), InputError);
    CHECK_THROWS_WITH_AS(agents::load_policy(dir.path / "bad.gnn"), doctest::Contains(message.c_str()),
                         InputError);
  }
}

}  // namespace
}  // namespace memplace
