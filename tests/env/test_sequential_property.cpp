// The sequential environment's two promises, over many random masked episodes on every paper
// workload: every episode ends with a valid mapping, and its dense rewards sum to the final
// speedup minus the all-slowest speedup.
#include <doctest/doctest.h>

#include <cmath>

#include "env/registry.hpp"
#include "env/sequential_env.hpp"
#include "model/references.hpp"

namespace memplace {
namespace {

// 1,000 episodes of up to ~550 steps take well under a second optimised (a few under ASan).
constexpr int kEpisodes = 1000;

void check_random_episodes(const std::string& workload) {
  CAPTURE(workload);
  const auto env = make("memplace/sequential/" + workload + "-v0");
  auto& seq = dynamic_cast<SequentialEnv&>(*env);
  const Simulator& sim = env->simulator();
  // References computed here, not taken from the environment.
  const ReferenceLatencies refs = reference_latencies(sim);
  const double slowest = speedup(refs.compiler_fs, refs.all_slowest_fs);
  const Discrete space = std::get<Discrete>(env->action_space());
  Evaluation eval;
  int invalid = 0;
  int off = 0;
  double worst = 0;
  for (int episode = 0; episode < kEpisodes; ++episode) {
    ResetResult start = env->reset(static_cast<std::uint64_t>(episode));
    ObservationView obs = start.obs;
    double sum = 0;
    std::size_t steps = 0;
    while (true) {
      const StepResult r = env->step(space.sample(env->rng(), obs.action_mask));
      sum += r.reward;
      ++steps;
      if (r.terminated) break;
      obs = r.obs;
    }
    REQUIRE(steps == env->episode_length());
    sim.evaluate(seq.mapping(), eval);
    invalid += eval.valid ? 0 : 1;
    const double expected = speedup(refs.compiler_fs, eval.latency_fs) - slowest;
    const double error =
        std::abs(sum - expected) / (expected == 0 ? 1.0 : std::abs(expected));  // relative
    worst = std::max(worst, error);
    off += error <= 1e-9 ? 0 : 1;
  }
  CHECK(invalid == 0);
  CHECK_MESSAGE(off == 0, "worst relative error " << worst);
}

TEST_CASE("sequential property: random masked episodes on resnet50") {
  check_random_episodes("resnet50");
}

TEST_CASE("sequential property: random masked episodes on resnet101") {
  check_random_episodes("resnet101");
}

TEST_CASE("sequential property: random masked episodes on bert-base") {
  check_random_episodes("bert-base");
}

// reset_to(start) under v1, from the final mappings of random episodes: the state is the one an
// episode that played `start` ends in (memories, free staging and memory-bound shares; latency),
// and an episode from it ends valid with rewards summing to the change in speedup.
TEST_CASE("sequential property: reset_to on bert-base v1 starts where playing the mapping ends") {
  const auto played = make("memplace/sequential/bert-base-v1");
  const auto started = make("memplace/sequential/bert-base-v1");
  auto& seq = dynamic_cast<SequentialEnv&>(*started);
  const Simulator& sim = played->simulator();
  const Discrete space = std::get<Discrete>(played->action_space());
  const TimeFs compiler_fs = reference_latencies(sim).compiler_fs;
  Evaluation eval;
  for (std::uint64_t episode = 0; episode < 20; ++episode) {
    CAPTURE(episode);
    ObservationView obs = played->reset(episode).obs;
    StepResult last;
    for (bool done = false; !done; done = last.terminated) {
      last = played->step(space.sample(played->rng(), obs.action_mask));
      obs = last.obs;
    }
    const auto& p = dynamic_cast<const SequentialEnv&>(*played);
    const Mapping start(p.mapping().begin(), p.mapping().end());
    const ResetResult r0 = seq.reset_to(start);
    CHECK(r0.info.latency_fs == last.info.latency_fs);
    const ObservationView a = played->observation(), b = started->observation();
    const std::size_t f = a.dynamic_features;
    REQUIRE(b.dynamic_features == f);
    int differ = 0;  // memories, then free staging and memory-bound share: the -v1 columns
    for (std::size_t l = 0; l < sim.num_layers(); ++l)
      for (const std::size_t c : {std::size_t{0}, std::size_t{1}, f - 2, f - 1})
        differ += a.dynamic[l * f + c] == b.dynamic[l * f + c] ? 0 : 1;
    CHECK(differ == 0);

    double sum = 0;
    obs = r0.obs;
    for (bool done = false; !done;) {
      const StepResult r = started->step(space.sample(started->rng(), obs.action_mask));
      sum += r.reward;
      obs = r.obs;
      done = r.terminated;
    }
    sim.evaluate(seq.mapping(), eval);
    REQUIRE(eval.valid);
    const double expected =
        speedup(compiler_fs, eval.latency_fs) - speedup(compiler_fs, r0.info.latency_fs);
    CHECK(sum == doctest::Approx(expected).epsilon(1e-9));
  }
}

}  // namespace
}  // namespace memplace
