// ea: EGRL's evolution without its learners (agents/evolution/evolution.hpp, docs/agents.md, ea).
// Each generation proposes its population's mappings and, once every one has its reward, breeds the
// next generation. A batch limit smaller than the generation only splits it across calls.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "agents/evolution/evolution_options.hpp"
#include "agents/registry.hpp"

namespace memplace::agents {
namespace {

constexpr const char* kEaName = "ea";

class EaAgent final : public Agent {
 public:
  explicit EaAgent(const AgentSetup& setup) : evolution_(make_evolution(kEaName, setup)) {}

  std::vector<Mapping> propose(std::size_t limit) override {
    return issue_candidates(evolution_, issued_, limit);
  }

  void learn(std::span<const Mapping> proposals, std::span<const Outcome> outcomes) override {
    for (std::size_t k = 0; k < proposals.size(); ++k)
      evolution_.report(reported_++, outcomes[k].reward);
    if (evolution_.complete()) {
      evolution_.next_generation();
      issued_ = reported_ = 0;
    }
  }

  void save(StateWriter& out) const override {
    evolution_.save(out, "ea");
    out.put("ea.issued", static_cast<std::uint64_t>(issued_));
    out.put("ea.reported", static_cast<std::uint64_t>(reported_));
  }

  void load(StateReader& in) override {
    evolution_.load(in, "ea");
    issued_ = in.get_u64("ea.issued");
    reported_ = in.get_u64("ea.reported");
  }

  std::string status() const override {
    const std::span<const double> fitness = evolution_.fitness();
    double best = 0, temperature = 0;
    std::size_t chromosomes = 0;
    if (!fitness.empty()) best = *std::max_element(fitness.begin(), fitness.end());
    for (std::size_t i = 0; i < evolution_.size(); ++i) {
      if (evolution_.kind(i) != IndividualKind::chromosome) continue;
      const std::span<const float> t = evolution_.chromosome(i).temperatures();
      temperature += std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
      ++chromosomes;
    }
    char text[128];
    if (chromosomes == 0)
      std::snprintf(text, sizeof text, "generation %llu, best fitness %.4g",
                    static_cast<unsigned long long>(evolution_.generation()), best);
    else
      std::snprintf(text, sizeof text, "generation %llu, best fitness %.4g, mean T %.3g",
                    static_cast<unsigned long long>(evolution_.generation()), best,
                    temperature / static_cast<double>(chromosomes));
    return text;
  }

  std::optional<nn::Gnn<float>> policy() const override { return champion_policy(evolution_); }

 private:
  Evolution evolution_;
  std::size_t issued_ = 0;    // candidates of this generation proposed so far
  std::size_t reported_ = 0;  // and scored
};

}  // namespace

AgentInfo ea_agent() {
  AgentInfo info{kEaName,
                 "EGRL's evolution without learners: GNN policies and Boltzmann chromosomes, "
                 "elites, tournament selection, crossover, mutation",
                 {"single-step"},
                 evolution_hyperparameters(),
                 [](const AgentSetup& setup) { return std::make_unique<EaAgent>(setup); },
                 ToyOptimumClaim{.budget = 3000, .hyperparameters = {}}};
  info.has_policy = true;  // its best GNN individual's; run_cost: RunCost's defaults are ea's
  return info;
}

}  // namespace memplace::agents
