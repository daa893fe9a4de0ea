// ea: EGRL's evolution without its learners (agents/evolution.hpp, docs/agents-ea.md). Each
// generation proposes its population's mappings and, once every one has its reward, breeds the
// next generation. A batch limit smaller than the generation only splits it across calls.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "agents/evolution.hpp"
#include "agents/learning_agents.hpp"

namespace memplace::agents {
namespace {

constexpr const char* kName = "ea";

EvolutionConfig config_from(const AgentSetup& setup) {
  const Hyperparameters h(kName, setup.hyperparameters);
  EvolutionConfig c;
  c.population = static_cast<std::size_t>(h.integer("population", 3, 4096));
  c.boltzmann_ratio = h.number("boltzmann_ratio", 0, 1);
  c.elite_fraction = h.number("elite_fraction", 0, 1);
  c.tournament = static_cast<std::size_t>(h.integer("tournament", 1, 4096));
  c.crossover_prob = h.number("crossover_prob", 0, 1);
  c.mutation_prob = h.number("mutation_prob", 0, 1);
  c.epsilon = h.number("epsilon", 0, 1);
  c.samples = static_cast<std::size_t>(h.integer("samples", 1, 1024));
  c.memo = h.flag("memo");
  c.hidden = static_cast<std::size_t>(h.integer("hidden", 1, 4096));
  c.conv_layers = static_cast<std::size_t>(h.integer("conv_layers", 1, 64));
  c.threads = std::max(1, setup.threads);
  return c;
}

class EaAgent final : public Agent {
 public:
  explicit EaAgent(const AgentSetup& setup)
      : evolution_(config_from(setup), setup.observation.view(), setup.context->sim->num_memories(),
                   setup.seed) {}

  std::vector<Mapping> propose(std::size_t limit) override {
    const std::span<const Candidate> candidates = evolution_.candidates();
    const std::size_t end = std::min(candidates.size(), issued_ + limit);
    std::vector<Mapping> out;
    for (std::size_t c = issued_; c < end; ++c)
      out.push_back(candidates[c].mapping);
    issued_ = end;
    return out;
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
    evolution_.save(out, "ea.");
    out.put("ea.issued", static_cast<std::uint64_t>(issued_));
    out.put("ea.reported", static_cast<std::uint64_t>(reported_));
  }

  void load(StateReader& in) override {
    evolution_.load(in, "ea.");
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

 private:
  Evolution evolution_;
  std::size_t issued_ = 0;    // candidates of this generation proposed so far
  std::size_t reported_ = 0;  // and scored
};

}  // namespace

AgentInfo ea_agent_info() {
  return {kName,
          "EGRL's evolution without learners: GNN policies and Boltzmann chromosomes, elites, "
          "tournament selection, crossover, mutation",
          {"single-step"},
          {{"population", "20", {}, "individuals per generation (EGRL code: 20)"},
           {"boltzmann_ratio",
            "0.5",
            {},
            "fraction of the population that are Boltzmann chromosomes, the rest GNN policies"},
           {"elite_fraction",
            "0.1",
            {},
            "fraction of the population kept unchanged, at least 2 (EGRL code: 0.1)"},
           {"tournament", "3", {}, "tournament size of the selection (EGRL code: 3)"},
           {"crossover_prob",
            "0.3",
            {},
            "chance that a pair of selected individuals crosses over (EGRL code: 0.3)"},
           {"mutation_prob", "0.85", {}, "chance that a non-elite is mutated (EGRL code: 0.85)"},
           {"epsilon",
            "0",
            {},
            "GNN individuals: per-tensor chance of a uniform memory instead of the greedy one "
            "(EGRL: 0, greedy)"},
           {"samples",
            "1",
            {},
            "evaluations per generation of a sampling individual (chromosomes; GNNs if epsilon > "
            "0); fitness is the best (EGRL code: 1)"},
           {"memo",
            "true",
            {"true", "false"},
            "remember every scored mapping's reward and never pay twice for one (the simulator is "
            "deterministic; the search is the same either way)"},
           {"hidden", "64", {}, "GNN hidden size (EGRL: 128; 64 for wall time)"},
           {"conv_layers", "3", {}, "GNN graph convolution layers (EGRL: U-Net depth 3)"}},
          [](const AgentSetup& setup) { return std::make_unique<EaAgent>(setup); }};
}

}  // namespace memplace::agents
