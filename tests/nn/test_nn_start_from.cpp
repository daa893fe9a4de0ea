// Starting a network from a trained one (agents/nn/start_from.hpp): the tensors both have are
// copied, the others keep their initialisation; networks that do not fit are refused. And through
// the trainer: a ppo run started from a policy proposes that policy's greedy mapping first.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "agents/nn/gnn_file.hpp"
#include "agents/nn/start_from.hpp"
#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "env/registry.hpp"
#include "model/inputs/mapping.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

nn::GnnConfig trunk(bool policy, bool value, bool q, std::size_t memories = 3) {
  nn::GnnConfig c{.input_features = 23, .hidden = 8, .conv_layers = 2, .memories = memories};
  c.policy_head = policy;
  c.value_head = value;
  c.q_head = q;
  return c;
}

bool same_tensor(const nn::Gnn<float>& a, const nn::Gnn<float>& b, const std::string& name) {
  const auto& la = a.parameters().layout();
  const auto& lb = b.parameters().layout();
  const auto ta = a.parameters().values().subspan(la.tensor(la.index_of(name)).offset,
                                                  la.tensor(la.index_of(name)).size());
  const auto tb = b.parameters().values().subspan(lb.tensor(lb.index_of(name)).offset,
                                                  lb.tensor(lb.index_of(name)).size());
  return std::equal(ta.begin(), ta.end(), tb.begin(), tb.end());
}

TEST_CASE("start from: the trunk and the shared heads are copied, the rest kept") {
  const nn::Gnn<float> actor_critic(trunk(true, true, false), 1);
  nn::Gnn<float> actor(trunk(true, false, false), 2);
  const nn::Gnn<float> fresh_actor = actor;
  // encoder (2) + 2 convolutions (4 each) + the policy head (4).
  CHECK(nn::start_from(actor_critic, actor) == 2 + 8 + 4);
  for (const char* name : {"encoder.weight", "conv1.norm.gain", "policy.out.bias"})
    CHECK(same_tensor(actor, actor_critic, name));

  // A critic keeps its Q head; a value head the trained network lacks keeps its own values.
  nn::Gnn<float> critic(trunk(false, false, true), 3);
  const nn::Gnn<float> fresh_critic = critic;
  CHECK(nn::start_from(actor, critic) == 2 + 8);
  CHECK(same_tensor(critic, actor, "conv0.weight"));
  CHECK(same_tensor(critic, fresh_critic, "q.out.weight"));
  nn::Gnn<float> with_value(trunk(true, true, false), 4);
  const nn::Gnn<float> fresh_value = with_value;
  nn::start_from(fresh_actor, with_value);
  CHECK(same_tensor(with_value, fresh_value, "value.out.weight"));
  CHECK(same_tensor(with_value, fresh_actor, "policy.hidden.weight"));
}

TEST_CASE("start from: another trunk or another number of memories is refused") {
  const nn::Gnn<float> trained(trunk(true, false, false), 1);
  nn::GnnConfig wider = trunk(true, false, false);
  wider.hidden = 16;
  nn::Gnn<float> other(wider, 2);
  CHECK_THROWS_WITH_AS(nn::start_from(trained, other), doctest::Contains("hidden=16"), InputError);
  nn::Gnn<float> two_memories(trunk(true, false, false, 2), 3);
  CHECK_THROWS_WITH_AS(nn::start_from(trained, two_memories), doctest::Contains("memories=2"),
                       InputError);
  // Without a policy head on one side, the memories do not matter.
  nn::Gnn<float> critic(trunk(false, false, true, 2), 4);
  CHECK(nn::start_from(trained, critic) == 2 + 8);
}

TEST_CASE("start from: a tempered policy's logits are the trained ones over the temperature") {
  const auto env = make("memplace/single-step/resnet50-v0");
  const nn::GraphBatch batch(env->reset(0).obs);
  nn::GnnConfig config = trunk(true, true, false);
  config.input_features = batch.num_features();
  const nn::Gnn<float> trained(config, 5);
  nn::Gnn<float> tempered = trained;
  nn::temper_policy(tempered, 4);
  nn::GnnWorkspace<float> a, b;
  trained.forward(batch, a);
  tempered.forward(batch, b);
  REQUIRE(a.logits().size() == b.logits().size());
  for (std::size_t i = 0; i < a.logits().size(); ++i)
    CHECK(b.logits()[i] == doctest::Approx(a.logits()[i] / 4).epsilon(1e-5));
  // The trunk and the value head are untouched.
  CHECK(same_tensor(trained, tempered, "encoder.weight"));
  CHECK(same_tensor(trained, tempered, "policy.hidden.weight"));
  CHECK(same_tensor(trained, tempered, "value.out.weight"));
  CHECK_FALSE(same_tensor(trained, tempered, "policy.out.weight"));
  nn::Gnn<float> critic(trunk(false, false, true), 6);
  CHECK_THROWS_WITH_AS(nn::temper_policy(critic, 2), doctest::Contains("no policy head"),
                       InputError);
  CHECK_THROWS_AS(nn::temper_policy(tempered, 0), InputError);
  CHECK_THROWS_AS(nn::temper_policy(tempered, std::nan("")), InputError);
}

TEST_CASE("start from: a ppo run from a policy first proposes that policy's greedy mapping") {
  testing::TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 6);
  agents::TrainConfig config;
  config.agent = "ppo";
  config.model.workload = toy.workload.string();
  config.model.hardware = toy.hardware.string();
  config.budget = 64;
  config.threads = 1;
  config.hyperparameters = {{"hidden", "8"}, {"greedy", "true"}, {"batch", "8"}};
  agents::Trainer first(config, dir.path / "first");
  first.run();
  const nn::Gnn<float> policy = *first.agent().policy();
  agents::save_gnn(dir.path / "policy.gnn", policy);

  // The fine-tuned run's agent holds the saved network before it has learnt anything.
  agents::TrainConfig fine = config;
  fine.seed = 7;
  fine.init_policy = (dir.path / "policy.gnn").string();
  agents::Trainer started(fine, dir.path / "fine");
  const nn::Gnn<float> start = *started.agent().policy();
  CHECK(std::equal(start.parameters().values().begin(), start.parameters().values().end(),
                   policy.parameters().values().begin(), policy.parameters().values().end()));
  CHECK(agents::TrainConfig::load(dir.path / "fine" / "config.yaml").init_policy ==
        fine.init_policy);  // a resumed run is built as it was
  // Tempered, it starts from the same policy with its logits divided (the output layer scaled).
  agents::TrainConfig warm = fine;
  warm.init_temperature = 4;
  agents::Trainer tempered(warm, dir.path / "tempered");
  nn::Gnn<float> expected = policy;
  nn::temper_policy(expected, 4);
  const nn::Gnn<float> held = *tempered.agent().policy();
  CHECK(std::equal(held.parameters().values().begin(), held.parameters().values().end(),
                   expected.parameters().values().begin(), expected.parameters().values().end()));
  CHECK(agents::TrainConfig::load(dir.path / "tempered" / "config.yaml").init_temperature == 4);
  CHECK(agents::TrainConfig::load(dir.path / "fine" / "config.yaml")
            .to_yaml()
            .find("init_temperature") == std::string::npos);  // written only when set
  agents::TrainConfig lone = config;
  lone.init_temperature = 2;
  CHECK_THROWS_WITH_AS(lone.resolve(), doctest::Contains("init_temperature: tempers a trained"),
                       InputError);
  lone.init_policy = fine.init_policy;
  lone.init_temperature = 0;
  CHECK_THROWS_WITH_AS(lone.resolve(), doctest::Contains("init_temperature: must be in"),
                       InputError);
  // Without it, the same seed starts elsewhere.
  agents::TrainConfig scratch = fine;
  scratch.init_policy.clear();
  agents::Trainer fresh(scratch, dir.path / "scratch");
  const nn::Gnn<float> other = *fresh.agent().policy();
  CHECK_FALSE(std::equal(other.parameters().values().begin(), other.parameters().values().end(),
                         policy.parameters().values().begin(), policy.parameters().values().end()));
  // An agent without a GNN is refused.
  agents::TrainConfig sa = fine;
  sa.agent = "sa";
  sa.hyperparameters.clear();
  CHECK_THROWS_WITH_AS(sa.resolve(), doctest::Contains("init_policy: agent 'sa' has no GNN"),
                       InputError);
}

}  // namespace
}  // namespace memplace
