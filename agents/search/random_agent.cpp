// random: uniform mappings (every tensor's memory uniform over the M memories, valid or not), or
// with --env sequential, masked sequential rollouts (a uniform choice among the memories the
// sequential env allows at each step, so every mapping fits).
#include <stdexcept>

#include "agents/registry.hpp"
#include "env/sequential_env.hpp"

namespace memplace::agents {
namespace {

class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(const AgentSetup& setup)
      : rng_(setup.seed),
        batch_(static_cast<std::size_t>(
            Hyperparameters("random", setup.hyperparameters).integer("batch", 1, 4096))),
        tensors_(setup.context->sim->num_tensors()),
        memories_(setup.context->sim->num_memories()) {
    // The sequential env on the run's own context: its simulator, and under v1 its dynamics.
    if (setup.env == "sequential")
      sequential_ = std::make_unique<SequentialEnv>(
          "memplace/sequential-" + std::string(version_name(setup.context->version)),
          setup.context);
  }

  std::vector<Mapping> propose(std::size_t limit) override {
    std::vector<Mapping> out(std::min(limit, batch_));
    for (Mapping& m : out)
      m = sequential_ ? rollout() : uniform();
    return out;
  }

  void learn(std::span<const Mapping>, std::span<const Outcome>) override {}
  void save(StateWriter& out) const override { out.put("random.rng", rng_); }
  void load(StateReader& in) override { rng_ = in.get_rng("random.rng"); }

 private:
  Mapping uniform() {
    Mapping m(tensors_);
    for (MemoryIndex& x : m)
      x = static_cast<MemoryIndex>(rng_.uniform(memories_));
    return m;
  }

  // One episode of the sequential env with a uniform choice among the allowed memories.
  Mapping rollout() {
    ObservationView obs = sequential_->reset(0).obs;
    for (bool done = false; !done;) {
      std::uint64_t allowed = 0;
      for (std::uint8_t a : obs.action_mask)
        allowed += a;
      std::uint64_t pick = rng_.uniform(allowed);
      std::int64_t action = 0;
      for (std::size_t a = 0; a < obs.action_mask.size(); ++a) {
        if (obs.action_mask[a] != 0 && pick-- == 0) {
          action = static_cast<std::int64_t>(a);
          break;
        }
      }
      const StepResult step = sequential_->step(std::span<const std::int64_t>(&action, 1));
      obs = step.obs;
      done = step.terminated || step.truncated;
    }
    const std::span<const MemoryIndex> mapping = sequential_->mapping();
    return Mapping(mapping.begin(), mapping.end());
  }

  Rng rng_;
  std::size_t batch_;
  std::size_t tensors_;
  std::uint64_t memories_;
  std::unique_ptr<SequentialEnv> sequential_;
};

}  // namespace

AgentInfo random_agent() {
  AgentInfo info{"random",
                 "uniform random mappings (sequential: masked rollouts, always valid)",
                 {"single-step", "sequential"},
                 {{"batch", "64", {}, "mappings proposed per call (throughput only)"}},
                 [](const AgentSetup& setup) { return std::make_unique<RandomAgent>(setup); }};
  info.run_cost = {.seconds_per_tensor = 0.00025};
  info.benchmark_budget = 20000;
  return info;
}

}  // namespace memplace::agents
