// greedy-dp: EGRL's dynamic-programming baseline. Starting from every tensor in the slowest
// memory (or the compiler's mapping, with start=compiler), sweep the layers in schedule order; for
// each, try all M x M (weight, activation) placements with the rest fixed (one evaluation each) and
// keep the best, if it beats the current mapping. Sweeps repeat until one brings no gain; then the
// agent is done (the run ends before its budget) — or, with restarts=true, starts again from a
// random mapping.
#include "agents/registry.hpp"
#include "agents/search/search_start.hpp"

namespace memplace::agents {
namespace {

class GreedyDpAgent final : public Agent {
 public:
  explicit GreedyDpAgent(const AgentSetup& setup)
      : rng_(setup.seed),
        memories_(setup.context->sim->num_memories()),
        layers_(setup.context->sim->num_layers()),
        restarts_(Hyperparameters("greedy-dp", setup.hyperparameters).flag("restarts")),
        current_(search_start_mapping(setup, Hyperparameters("greedy-dp", setup.hyperparameters))) {
  }

  std::vector<Mapping> propose(std::size_t limit) override {
    if (!scored_start_) return {current_};  // score the starting point first
    if (converged_) {
      if (!restarts_) return {};
      for (MemoryIndex& m : current_)
        m = static_cast<MemoryIndex>(rng_.uniform(memories_));
      converged_ = false;
      scored_start_ = false;
      layer_ = 0;
      improved_in_sweep_ = false;
      return {current_};
    }
    // The M x M placements of layer_ other than its current one, as far as `limit` allows (a
    // partial batch still counts: the budget ends the run there anyway).
    std::vector<Mapping> out;
    for (std::size_t w = 0; w < memories_; ++w) {
      for (std::size_t a = 0; a < memories_; ++a) {
        if (w == current_[2 * layer_] && a == current_[2 * layer_ + 1]) continue;
        if (out.size() == limit) return out;
        Mapping m = current_;
        m[2 * layer_] = static_cast<MemoryIndex>(w);
        m[2 * layer_ + 1] = static_cast<MemoryIndex>(a);
        out.push_back(std::move(m));
      }
    }
    return out;
  }

  void learn(std::span<const Mapping> proposals, std::span<const Outcome> outcomes) override {
    if (!scored_start_) {
      current_reward_ = outcomes[0].reward;
      scored_start_ = true;
      return;
    }
    // Keep the best strict improvement (the first, on ties: deterministic).
    for (std::size_t i = 0; i < proposals.size(); ++i) {
      if (outcomes[i].reward > current_reward_) {
        current_reward_ = outcomes[i].reward;
        current_ = proposals[i];
        improved_in_sweep_ = true;
      }
    }
    if (++layer_ == layers_) {
      layer_ = 0;
      ++sweeps_;
      converged_ = !improved_in_sweep_;
      improved_in_sweep_ = false;
    }
  }

  void save(StateWriter& out) const override {
    out.put("greedy-dp.rng", rng_);
    out.put_array<std::uint8_t>("greedy-dp.current", current_);
    out.put("greedy-dp.current_reward", current_reward_);
    out.put("greedy-dp.layer", static_cast<std::uint64_t>(layer_));
    out.put("greedy-dp.sweeps", static_cast<std::uint64_t>(sweeps_));
    out.put("greedy-dp.flags",
            static_cast<std::uint64_t>((scored_start_ ? 1 : 0) | (converged_ ? 2 : 0) |
                                       (improved_in_sweep_ ? 4 : 0)));
  }

  void load(StateReader& in) override {
    rng_ = in.get_rng("greedy-dp.rng");
    in.get_array_into<std::uint8_t>("greedy-dp.current", current_);
    current_reward_ = in.get_f64("greedy-dp.current_reward");
    layer_ = in.get_u64("greedy-dp.layer");
    sweeps_ = in.get_u64("greedy-dp.sweeps");
    const std::uint64_t flags = in.get_u64("greedy-dp.flags");
    scored_start_ = (flags & 1) != 0;
    converged_ = (flags & 2) != 0;
    improved_in_sweep_ = (flags & 4) != 0;
  }

  std::string status() const override {
    return "sweep " + std::to_string(sweeps_ + 1) + ", layer " + std::to_string(layer_);
  }

 private:
  Rng rng_;
  std::size_t memories_;
  std::size_t layers_;
  bool restarts_;
  Mapping current_;
  double current_reward_ = 0;
  std::size_t layer_ = 0;
  std::size_t sweeps_ = 0;
  bool scored_start_ = false;
  bool converged_ = false;
  bool improved_in_sweep_ = false;
};

}  // namespace

AgentInfo greedy_dp_agent() {
  AgentInfo info{
      "greedy-dp",
      "EGRL's dynamic-programming baseline: layer by layer, the best of M x M placements",
      {"single-step"},
      {{"restarts",
        "false",
        {"true", "false"},
        "after a sweep without gain: stop (false, as EGRL) or restart from a random mapping"},
       search_start_option()},
      [](const AgentSetup& setup) { return std::make_unique<GreedyDpAgent>(setup); },
      ToyOptimumClaim{.budget = 3000, .hyperparameters = {{"restarts", "true"}}}};
  info.run_cost = {.seconds_per_tensor = 0.0001};
  info.benchmark_budget = 20000;
  return info;
}

}  // namespace memplace::agents
