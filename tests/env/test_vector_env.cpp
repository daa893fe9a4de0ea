// The vector env: results equal to lone environments and independent of the thread count,
// next-step auto-reset, per-copy seeds, and bad batches that change nothing.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/registry.hpp"
#include "env/vector_env.hpp"

namespace memplace {
namespace {

const std::string kSequential = "memplace/sequential/resnet50-v0";
const std::string kSingleStep = "memplace/single-step/resnet50-v0";

// One copy's part of a step, comparable and printable.
struct CopyStep {
  std::uint64_t obs_hash = 0;
  double reward = 0;
  bool terminated = false;
  bool truncated = false;
  std::vector<std::pair<std::string, double>> info;
  bool operator==(const CopyStep&) const = default;
};

std::vector<CopyStep> snapshot(const VectorStepResult& r) {
  std::vector<CopyStep> out;
  for (std::size_t i = 0; i < r.obs.size(); ++i) {
    out.push_back({r.obs[i].hash(), r.rewards[i], r.terminated[i] != 0, r.truncated[i] != 0,
                   r.infos[i].to_map()});
  }
  return out;
}

// A random action for every copy: masked for Discrete spaces (any value for copies that are
// about to auto-reset, whose action is ignored), uniform for MultiDiscrete.
std::vector<std::int64_t> random_batch(const VectorEnv& envs, Rng& rng) {
  std::vector<std::int64_t> batch(envs.num_envs() * envs.action_size());
  const VectorStepResult last = envs.last();
  for (std::size_t i = 0; i < envs.num_envs(); ++i) {
    const std::span<std::int64_t> action =
        std::span(batch).subspan(i * envs.action_size(), envs.action_size());
    if (const auto* d = std::get_if<Discrete>(&envs.single_action_space())) {
      action[0] = envs.resets_next_step(i) ? -7 : d->sample(rng, last.obs[i].action_mask);
    } else {
      std::get<MultiDiscrete>(envs.single_action_space()).sample(rng, action);
    }
  }
  return batch;
}

// The same steps on lone environments, with the auto-reset rule written out.
struct LoneEnvs {
  std::vector<std::unique_ptr<Env>> envs;
  std::vector<bool> ended;

  LoneEnvs(const std::string& id, std::size_t n, std::uint64_t seed) : ended(n, false) {
    for (std::size_t i = 0; i < n; ++i) {
      envs.push_back(make(id));
      envs.back()->reset(seed + i);
    }
  }
  std::vector<CopyStep> step(std::span<const std::int64_t> batch) {
    std::vector<CopyStep> out;
    const std::size_t k = batch.size() / envs.size();
    for (std::size_t i = 0; i < envs.size(); ++i) {
      if (ended[i]) {
        const ResetResult r = envs[i]->reset();
        out.push_back({r.obs.hash(), 0.0, false, false, r.info.to_map()});
        ended[i] = false;
        continue;
      }
      const StepResult r = envs[i]->step(batch.subspan(i * k, k));
      out.push_back({r.obs.hash(), r.reward, r.terminated, r.truncated, r.info.to_map()});
      ended[i] = r.terminated || r.truncated;
    }
    return out;
  }
};

void check_thread_independence(const std::string& id, std::size_t steps) {
  constexpr std::size_t kCopies = 5;
  VectorEnv one(id, kCopies, {}, VectorEnvOptions{.num_threads = 1});
  VectorEnv two(id, kCopies, {}, VectorEnvOptions{.num_threads = 2});
  CHECK(one.num_threads() == 1);
  CHECK(two.num_threads() == 2);
  LoneEnvs lone(id, kCopies, 9);
  one.reset(9);
  two.reset(9);
  Rng rng(3);
  std::size_t endings = 0;
  for (std::size_t s = 0; s < steps; ++s) {
    const std::vector<std::int64_t> batch = random_batch(one, rng);
    const std::vector<CopyStep> a = snapshot(one.step(batch));
    const std::vector<CopyStep> b = snapshot(two.step(batch));
    const std::vector<CopyStep> expected = lone.step(batch);
    REQUIRE(a == b);
    REQUIRE(a == expected);
    for (const CopyStep& c : a)
      endings += c.terminated ? 1 : 0;
  }
  CHECK(endings >= 2 * kCopies);  // auto-reset happened, more than once per copy
}

TEST_CASE("vector sequential env gives the same results on 1 and 2 threads as lone envs") {
  const auto env = make(kSequential);
  check_thread_independence(kSequential, 2 * env->episode_length() + 40);
}

TEST_CASE("vector single-step env gives the same results on 1 and 2 threads as lone envs") {
  check_thread_independence(kSingleStep, 50);
}

TEST_CASE("vector env auto-resets at the step after an episode ends") {
  VectorEnv envs(kSingleStep, 3);
  auto lone = make(kSingleStep);
  const ResetResult fresh = lone->reset();
  const std::uint64_t fresh_hash = fresh.obs.hash();
  const TimeFs fresh_latency = fresh.info.latency_fs;
  const VectorResetResult first = envs.reset(1);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(first.obs[i].hash() == fresh_hash);

  Rng rng(5);
  for (int round = 0; round < 3; ++round) {
    // Odd steps end the episode: the final observation and reward of the mapping.
    const std::vector<std::int64_t> batch = random_batch(envs, rng);
    const VectorStepResult ended = envs.step(batch);
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      lone->reset();
      const StepResult expected =
          lone->step(std::span(batch).subspan(i * envs.action_size(), envs.action_size()));
      CHECK(ended.terminated[i] == 1);
      CHECK(ended.truncated[i] == 0);
      CHECK(ended.rewards[i] == expected.reward);
      CHECK(ended.obs[i].hash() == expected.obs.hash());
      CHECK(ended.infos[i].step == 1);
      CHECK(envs.resets_next_step(i));
    }
    // Even steps reset: the action is ignored (even an invalid one), reward 0, flags false.
    const std::vector<std::int64_t> garbage(3 * envs.action_size(), -1);
    const VectorStepResult reset = envs.step(garbage);
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      CHECK(reset.terminated[i] == 0);
      CHECK(reset.truncated[i] == 0);
      CHECK(reset.rewards[i] == 0.0);
      CHECK(reset.obs[i].hash() == fresh_hash);
      CHECK(reset.infos[i].step == 0);
      CHECK(reset.infos[i].latency_fs == fresh_latency);
      CHECK_FALSE(envs.resets_next_step(i));
    }
  }
}

TEST_CASE("vector env seeds copy i with seed plus i and auto-reset does not reseed") {
  VectorEnv envs(kSingleStep, 4);
  envs.reset(100);
  for (std::size_t i = 0; i < 4; ++i) {
    auto lone = make(kSingleStep);
    lone->reset(100 + i);
    CHECK(envs.env(i).rng() == lone->rng());
  }
  // Draw from copy 0's generator, then end and auto-reset the episode: the generator goes on.
  envs.env(0).rng().next();
  const Rng drawn = envs.env(0).rng();
  Rng rng(1);
  envs.step(random_batch(envs, rng));
  envs.step(random_batch(envs, rng));  // the auto-reset
  CHECK(envs.env(0).rng() == drawn);
  envs.reset();  // no seed: no reseed
  CHECK(envs.env(0).rng() == drawn);
}

TEST_CASE("a bad vector batch throws naming the copy and changes no copy") {
  constexpr std::size_t kCopies = 4;
  VectorEnv envs(kSequential, kCopies, {}, VectorEnvOptions{.num_threads = 2});
  CHECK_THROWS_WITH_AS(envs.step(std::vector<std::int64_t>(kCopies, 0)),
                       doctest::Contains("before reset()"), std::invalid_argument);
  envs.reset(0);
  // Place tensors in the fastest memory while it fits, the same in every copy, until the fastest
  // memory is masked (full): then every kind of bad action is available.
  std::size_t steps = 0;
  while (envs.last().obs[0].action_mask[0] != 0) {
    REQUIRE(++steps < envs.env(0).episode_length());
    envs.step(std::vector<std::int64_t>(kCopies, 0));
  }
  const std::int64_t allowed = envs.last().obs[0].action_mask[1] != 0 ? 1 : 2;
  const std::vector<CopyStep> before = snapshot(envs.last());
  std::vector<std::uint64_t> mappings;
  for (std::size_t i = 0; i < kCopies; ++i)
    mappings.push_back(envs.env(i).observation().hash());

  auto unchanged = [&] {
    CHECK(snapshot(envs.last()) == before);
    for (std::size_t i = 0; i < kCopies; ++i)
      CHECK(envs.env(i).observation().hash() == mappings[i]);
  };
  std::vector<std::int64_t> batch(kCopies, allowed);
  CHECK_THROWS_WITH_AS(envs.step(std::span(batch).first(3)),
                       doctest::Contains("got 3 action entries; expected 4 copies x 1 = 4"),
                       std::invalid_argument);
  unchanged();
  batch[2] = 3;
  CHECK_THROWS_WITH_AS(envs.step(batch),
                       doctest::Contains("copy 2: action 3 is out of range (0..2)"),
                       std::invalid_argument);
  unchanged();
  batch[2] = allowed;
  batch[3] = 0;
  batch[1] = -1;  // the lowest bad copy is named
  CHECK_THROWS_WITH_AS(envs.step(batch), doctest::Contains("copy 1: action -1 is out of range"),
                       std::invalid_argument);
  unchanged();
  batch[1] = allowed;
  CHECK_THROWS_WITH_AS(envs.step(batch), doctest::Contains("copy 3: action 0 is masked (allowed: "),
                       std::invalid_argument);
  unchanged();
  // The same batch made good steps every copy.
  batch[3] = allowed;
  const VectorStepResult r = envs.step(batch);
  for (std::size_t i = 0; i < kCopies; ++i)
    CHECK(r.infos[i].step == steps + 1);
}

TEST_CASE("a bad multi-discrete vector batch names the copy and the entry") {
  VectorEnv envs(kSingleStep, 2, {}, VectorEnvOptions{.num_threads = 2});
  envs.reset(0);
  const std::vector<CopyStep> before = snapshot(envs.last());
  std::vector<std::int64_t> batch(2 * envs.action_size(), 1);
  batch[envs.action_size() + 5] = 3;
  CHECK_THROWS_WITH_AS(envs.step(batch), doctest::Contains("copy 1: action[5] = 3 is out of range"),
                       std::invalid_argument);
  CHECK(snapshot(envs.last()) == before);
  CHECK_FALSE(envs.resets_next_step(0));  // copy 0 did not step either
  batch[envs.action_size() + 5] = 2;
  const VectorStepResult r = envs.step(batch);
  CHECK(r.terminated[0] == 1);
  CHECK(r.terminated[1] == 1);
}

// An environment whose step() fails on demand after validation passed (a stand-in for any error
// the vector env's own checks cannot foresee).
class FailingEnv final : public Env {
 public:
  explicit FailingEnv(std::unique_ptr<Env> inner) : inner_(std::move(inner)) {}
  FailingEnv(const FailingEnv& other) : Env(other), inner_(other.inner_->clone()) {}
  bool fail = false;

  const std::string& id() const override { return inner_->id(); }
  Space observation_space() const override { return inner_->observation_space(); }
  Space action_space() const override { return inner_->action_space(); }
  std::size_t episode_length() const override { return inner_->episode_length(); }
  ResetResult reset(std::optional<std::uint64_t> seed) override { return inner_->reset(seed); }
  StepResult step(std::span<const std::int64_t> action) override {
    if (fail) throw std::runtime_error("copy failed on purpose");
    return inner_->step(action);
  }
  using Env::step;
  ObservationView observation() const override { return inner_->observation(); }
  std::unique_ptr<Env> clone() const override { return std::make_unique<FailingEnv>(*this); }
  OptionMap options() const override { return inner_->options(); }
  const Simulator& simulator() const override { return inner_->simulator(); }

 private:
  std::unique_ptr<Env> inner_;
};

TEST_CASE("an exception inside a copy's step is rethrown after the parallel loop") {
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    const FailingEnv prototype(make(kSequential));
    VectorEnv envs(prototype, 4, VectorEnvOptions{.num_threads = threads});
    envs.reset(0);
    dynamic_cast<FailingEnv&>(envs.env(1)).fail = true;
    dynamic_cast<FailingEnv&>(envs.env(2)).fail = true;
    const std::vector<std::int64_t> slowest(4, 2);
    CHECK_THROWS_WITH_AS(envs.step(slowest), "copy failed on purpose", std::runtime_error);
    // The other copies stepped (documented), whatever the thread count; the failed ones did not.
    CHECK(envs.last().infos[0].step == 1);
    CHECK(envs.last().infos[1].step == 0);
    CHECK(envs.last().infos[2].step == 0);
    CHECK(envs.last().infos[3].step == 1);
    dynamic_cast<FailingEnv&>(envs.env(1)).fail = false;
    dynamic_cast<FailingEnv&>(envs.env(2)).fail = false;
    envs.step(slowest);
    CHECK(envs.last().infos[0].step == 2);
    CHECK(envs.last().infos[2].step == 1);
  }
}

TEST_CASE("vector env needs at least one copy") {
  CHECK_THROWS_WITH_AS(VectorEnv(kSequential, 0), doctest::Contains("at least one copy"),
                       std::invalid_argument);
}

TEST_CASE("vector env made from a prototype clones it") {
  auto prototype = make(kSequential, {{"order", "msa"}});
  VectorEnv envs(*prototype, 2);
  CHECK(envs.id() == kSequential);
  CHECK(envs.env(1).options().at("order") == "msa");
  CHECK(envs.action_size() == 1);
  CHECK(&envs.env(0).simulator() == &prototype->simulator());  // shared, not copied
}

}  // namespace
}  // namespace memplace
