// The sequential environment's two promises, over many random masked episodes on every paper
// workload: every episode ends with a valid mapping, and its dense rewards sum to the final
// speedup minus the all-slowest speedup.
#include <doctest/doctest.h>

#include <cmath>

#include "env/model/references.hpp"
#include "env/registry.hpp"
#include "env/sequential_env.hpp"

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

}  // namespace
}  // namespace memplace
