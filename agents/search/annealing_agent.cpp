// sa: simulated annealing over single-tensor moves. From every tensor in the slowest memory (or
// the compiler's mapping, with start=compiler), each step moves one uniformly chosen tensor to
// another uniformly chosen memory and accepts the move with probability min(1, exp(Δreward / T)); T
// cools geometrically from t_start to t_end over the budget. One proposal per call: the chain is
// sequential.
#include <cmath>
#include <cstdio>

#include "agents/registry.hpp"
#include "agents/search/search_start.hpp"
#include "base/portable_math.hpp"

namespace memplace::agents {
namespace {

class AnnealingAgent final : public Agent {
 public:
  explicit AnnealingAgent(const AgentSetup& setup)
      : rng_(setup.seed), memories_(setup.context->sim->num_memories()), budget_(setup.budget) {
    const Hyperparameters h("sa", setup.hyperparameters);
    current_ = search_start_mapping(setup, h);
    t_start_ = h.number("t_start", 1e-9, 1e6);
    t_end_ = h.number("t_end", 1e-12, 1e6);
  }

  std::vector<Mapping> propose(std::size_t) override {
    if (!scored_start_) return {current_};
    Mapping next = current_;
    const std::size_t tensor = rng_.uniform(next.size());
    if (memories_ > 1) {
      // Another memory than the current one, uniformly.
      auto m = static_cast<MemoryIndex>(rng_.uniform(memories_ - 1));
      if (m >= next[tensor]) ++m;
      next[tensor] = m;
    }
    return {std::move(next)};
  }

  void learn(std::span<const Mapping> proposals, std::span<const Outcome> outcomes) override {
    ++steps_;
    if (!scored_start_) {
      scored_start_ = true;
      current_reward_ = outcomes[0].reward;
      return;
    }
    const double delta = outcomes[0].reward - current_reward_;
    const double u = rng_.uniform01();  // drawn every step, so the stream does not depend on Δ
    if (delta >= 0 || u < portable::exp(delta / temperature())) {
      current_ = proposals[0];
      current_reward_ = outcomes[0].reward;
      ++accepted_;
    }
  }

  void save(StateWriter& out) const override {
    out.put("sa.rng", rng_);
    out.put_array<std::uint8_t>("sa.current", current_);
    out.put("sa.current_reward", current_reward_);
    out.put("sa.steps", steps_);
    out.put("sa.accepted", accepted_);
    out.put("sa.scored_start", static_cast<std::uint64_t>(scored_start_));
  }

  void load(StateReader& in) override {
    rng_ = in.get_rng("sa.rng");
    in.get_array_into<std::uint8_t>("sa.current", current_);
    current_reward_ = in.get_f64("sa.current_reward");
    steps_ = in.get_u64("sa.steps");
    accepted_ = in.get_u64("sa.accepted");
    scored_start_ = in.get_u64("sa.scored_start") != 0;
  }

  std::string status() const override {
    char text[96];
    std::snprintf(
        text, sizeof text, "T %.3g, accepted %.1f%%", temperature(),
        steps_ ? 100.0 * static_cast<double>(accepted_) / static_cast<double>(steps_) : 0.0);
    return text;
  }

 private:
  double temperature() const {
    const double progress =
        std::min(1.0, static_cast<double>(steps_) /
                          static_cast<double>(std::max<std::uint64_t>(1, budget_)));
    return t_start_ * portable::pow_positive(t_end_ / t_start_, progress);
  }

  Rng rng_;
  std::uint64_t memories_;
  std::uint64_t budget_;
  Mapping current_;
  double current_reward_ = 0;
  double t_start_ = 0, t_end_ = 0;
  std::uint64_t steps_ = 0, accepted_ = 0;
  bool scored_start_ = false;
};

}  // namespace

AgentInfo annealing_agent() {
  AgentInfo info{"sa",
                 "simulated annealing over single-tensor moves, geometric cooling over the budget",
                 {"single-step"},
                 {{"t_start", "0.1", {}, "initial temperature, in reward units (speedup - 1)"},
                  {"t_end", "0.00001", {}, "final temperature, reached when the budget is spent"},
                  search_start_option()},
                 [](const AgentSetup& setup) { return std::make_unique<AnnealingAgent>(setup); },
                 // A 12-tensor toy needs a warmer end than the default (tuned on gpt2-small): with
                 // t_end 1e-5 the chain freezes in a local optimum of some (docs/agents.md, sa).
                 ToyOptimumClaim{.budget = 10000, .hyperparameters = {{"t_end", "0.001"}}}};
  info.run_cost = {.seconds_per_tensor = 0.00033};
  info.benchmark_budget = 20000;
  return info;
}

}  // namespace memplace::agents
