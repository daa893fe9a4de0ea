// The mcts agent's network (agents/planning/mcts_network.hpp): its prior is the last read's row of
// the tensor, training moves the masked softmax to the improved policy it remembered, and a saved
// network continues exactly.
#include <doctest/doctest.h>

#include <cmath>

#include "agents/planning/mcts_network.hpp"
#include "agents/registry.hpp"
#include "base/errors.hpp"
#include "env/placement_context.hpp"
#include "env/sequential_env.hpp"
#include "tests/support/toy.hpp"

namespace memplace::agents::planning {
namespace {

std::unique_ptr<SequentialEnv> toy_env() {
  auto sim = std::make_shared<const Simulator>(toy::random_workload(4, 5), toy::hardware_levels(3));
  return std::make_unique<SequentialEnv>("toy/sequential", make_placement_context(sim));
}

// The softmax of `logits` over the allowed entries of `mask`.
std::vector<double> masked_softmax(const std::vector<double>& logits,
                                   std::span<const std::uint8_t> mask) {
  double top = -1e300, sum = 0;
  for (std::size_t a = 0; a < logits.size(); ++a)
    if (mask[a] != 0) top = std::max(top, logits[a]);
  std::vector<double> p(logits.size(), 0.0);
  for (std::size_t a = 0; a < logits.size(); ++a)
    if (mask[a] != 0) sum += p[a] = std::exp(logits[a] - top);
  for (double& x : p)
    x /= sum;
  return p;
}

TEST_CASE("mcts network: training moves the prior to the remembered improved policy") {
  auto env = toy_env();
  const ObservationView obs = env->reset(0).obs;
  MctsNetwork net(obs, 3, {.batch = 4, .updates = 50, .replay = 8}, 1);
  const std::size_t tensor = env->current_tensor();
  const std::vector<std::uint8_t> mask(obs.action_mask.begin(), obs.action_mask.end());
  // A target on the allowed actions, most of its mass on the last allowed one.
  std::vector<double> target(3, 0.0);
  std::size_t allowed = 0, last = 0;
  for (std::size_t a = 0; a < 3; ++a)
    if (mask[a] != 0) ++allowed, last = a;
  REQUIRE(allowed >= 2);
  for (std::size_t a = 0; a < 3; ++a)
    if (mask[a] != 0) target[a] = a == last ? 0.8 : 0.2 / static_cast<double>(allowed - 1);
  net.remember(obs, tensor, target);
  Rng rng(3);
  const double first = net.train(rng);
  double loss = first;
  for (int round = 0; round < 10; ++round)
    loss = net.train(rng);
  CHECK(loss < first);
  net.read(obs);
  const std::vector<double> p = masked_softmax(net.prior(tensor).logits, mask);
  CHECK(p[last] == doctest::Approx(0.8).epsilon(0.05));
  // The cross-entropy's floor is the target's entropy; training reaches near it.
  double entropy = 0;
  for (const double t : target)
    if (t > 0) entropy -= t * std::log(t);
  CHECK(loss == doctest::Approx(entropy).epsilon(0.05));
}

TEST_CASE("mcts network: the prior is the read's row of the tensor, its value zero") {
  auto env = toy_env();
  ObservationView obs = env->reset(0).obs;
  MctsNetwork net(obs, 3, {}, 5);
  net.read(obs);
  const PriorAndValue first = net.prior(env->current_tensor());
  CHECK(first.logits.size() == 3);
  CHECK(first.value == 0.0);
  // Another state gives other logits.
  obs = env->step(std::int64_t{2}).obs;
  net.read(obs);
  const PriorAndValue second = net.prior(env->current_tensor());
  CHECK(second.logits != first.logits);
}

TEST_CASE("mcts network: saved and loaded, it trains on exactly as the original") {
  auto env = toy_env();
  ObservationView obs = env->reset(0).obs;
  MctsNetwork a(obs, 3, {.batch = 3, .updates = 3, .replay = 4}, 7);
  Rng rng(11);
  for (int step = 0; step < 5 && obs.action_mask.size() == 3; ++step) {
    std::vector<double> policy(3, 0.0);
    for (std::size_t m = 0; m < 3; ++m)
      if (obs.action_mask[m] != 0) policy[m] = 1.0;
    double sum = policy[0] + policy[1] + policy[2];
    for (double& p : policy)
      p /= sum;
    a.remember(obs, env->current_tensor(), policy);
    a.train(rng);
    obs = env->step(std::int64_t{2}).obs;
  }
  StateWriter out;
  a.save(out);
  StateReader in(out.finish(), "test");
  auto env2 = toy_env();
  MctsNetwork b(env2->reset(0).obs, 3, {.batch = 3, .updates = 3, .replay = 4}, 99);
  b.load(in);
  in.expect_end();
  Rng rng_a(5), rng_b(5);
  CHECK(a.train(rng_a) == b.train(rng_b));
  a.read(env2->observation());
  b.read(env2->observation());
  CHECK(a.prior(env2->current_tensor()).logits == b.prior(env2->current_tensor()).logits);
  CHECK(a.remembered() == 4);
}

TEST_CASE("mcts: the network's hyperparameters are checked with the uniform prior too") {
  AgentSetup setup;  // mcts makes its own env from the context
  setup.context = make_placement_context(
      std::make_shared<const Simulator>(toy::random_workload(4, 5), toy::hardware_levels(3)));
  const auto& specs = find_agent("mcts").hyperparameters;
  setup.hyperparameters = resolve_options("mcts", specs, {{"prior", "uniform"}, {"lr", "5"}});
  CHECK_THROWS_WITH_AS(make_agent("mcts", setup),
                       doctest::Contains("lr=5: expected a number in [1e-09, 1]"), InputError);
  setup.hyperparameters = resolve_options("mcts", specs, {{"prior", "uniform"}});
  CHECK(make_agent("mcts", setup) != nullptr);
}

}  // namespace
}  // namespace memplace::agents::planning
