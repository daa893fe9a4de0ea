// The ea agent and its parts: the Boltzmann chromosome, the GNN operators, the evolution core
// (elites, migration, the memo, exact save/load mid-generation), and the agent through the
// trainer (toy optima, 1 vs 2 threads, exact resume).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

#include "agents/evolution/boltzmann.hpp"
#include "agents/evolution/evolution.hpp"
#include "agents/evolution/gnn_operators.hpp"
#include "agents/registry.hpp"
#include "agents/training/trainer.hpp"
#include "base/options.hpp"
#include "env/placement_context.hpp"
#include "env/registry.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using agents::BoltzmannChromosome;
using agents::Evolution;
using agents::EvolutionConfig;
using agents::IndividualKind;
using testing::make_toy_problem;
using testing::TempDir;
using testing::train_on;

nn::GnnConfig small_gnn() {
  return nn::GnnConfig{.input_features = 5, .hidden = 8, .conv_layers = 2, .memories = 3};
}

// The resnet50 single-step observation, for the evolution core's own tests.
struct Resnet50 {
  std::unique_ptr<Env> env = make("memplace/single-step-v0", {});
  Observation observation = env->reset(0).obs.copy();
  std::size_t memories = env->simulator().num_memories();
};

TEST_CASE("agent ea: Boltzmann sampling frequencies match softmax(prior / T)") {
  const std::vector<float> priors{0.2f, 0.9f, 0.5f, 1.0f, 0.0f, -1.0f, 3.0f, 3.0f, 2.0f};
  const std::vector<float> temperatures{0.5f, 10.0f, 1.3f};
  const BoltzmannChromosome c(priors, temperatures, 3);
  Rng rng(11);
  constexpr int kSamples = 60000;
  std::vector<int> counts(9, 0);
  Mapping m(3);
  for (int s = 0; s < kSamples; ++s) {
    c.sample(rng, m);
    for (std::size_t t = 0; t < 3; ++t)
      ++counts[t * 3 + m[t]];
  }
  for (std::size_t t = 0; t < 3; ++t) {
    double z[3], sum = 0;
    for (std::size_t j = 0; j < 3; ++j)
      sum += (z[j] = std::exp(priors[t * 3 + j] / temperatures[t]));
    const std::vector<double> p = c.probabilities(t);
    for (std::size_t j = 0; j < 3; ++j) {
      CAPTURE(t);
      CAPTURE(j);
      CHECK(p[j] == doctest::Approx(z[j] / sum).epsilon(1e-6));
      const double sigma = std::sqrt(p[j] * (1 - p[j]) / kSamples);
      CHECK(std::abs(counts[t * 3 + j] / double(kSamples) - p[j]) <= 4.5 * sigma + 1e-9);
    }
  }
}

TEST_CASE("agent ea: Boltzmann chromosome initialisation, mutation, crossover and seeding") {
  Rng rng(3);
  BoltzmannChromosome a(40, 3, rng), b(40, 3, rng);
  for (const float p : a.priors())
    CHECK((p >= 0 && p < 1));
  for (const float t : a.temperatures())
    CHECK((t >= 0.1f && t <= 10.0f));

  SUBCASE("mutation keeps temperatures in [0.1, 10] and cools on average") {
    double before = 0, after = 0;
    for (const float t : a.temperatures())
      before += t;
    BoltzmannChromosome m = a;
    m.mutate(rng);
    for (const float t : m.temperatures()) {
      CHECK((t >= 0.1f && t <= 10.0f));
      after += t;
    }
    CHECK(after < before);
    for (std::size_t i = 0; i < a.priors().size(); ++i)
      CHECK(std::abs(m.priors()[i] - a.priors()[i]) <= 0.6 * std::abs(a.priors()[i]) + 1e-7);
    for (int k = 0; k < 200; ++k)
      m.mutate(rng);
    double mean = 0;
    for (const float t : m.temperatures())
      mean += t / 40.0;
    CHECK(mean < 0.2);  // cooled down to near the floor
  }

  SUBCASE("crossover: each node whole from one parent, children complementary") {
    BoltzmannChromosome x = a, y = b;
    agents::crossover(x, y, rng);
    std::size_t from_b = 0;
    for (std::size_t node = 0; node < 20; ++node) {
      auto same = [&](const BoltzmannChromosome& u, const BoltzmannChromosome& v) {
        for (std::size_t t = 2 * node; t < 2 * node + 2; ++t) {
          if (u.temperatures()[t] != v.temperatures()[t]) return false;
          for (std::size_t j = 0; j < 3; ++j)
            if (u.priors()[t * 3 + j] != v.priors()[t * 3 + j]) return false;
        }
        return true;
      };
      const bool kept = same(x, a) && same(y, b);
      const bool swapped = same(x, b) && same(y, a);
      CHECK(kept != swapped);
      from_b += swapped;
    }
    CHECK(from_b > 0);
    CHECK(from_b < 20);
  }

  SUBCASE("seeding from logits samples the logits' softmax") {
    std::vector<float> logits(120);
    for (std::size_t i = 0; i < logits.size(); ++i)
      logits[i] = static_cast<float>(std::sin(double(i)) * 3);
    a.seed(logits);
    CHECK(std::equal(logits.begin(), logits.end(), a.priors().begin()));
    for (const float t : a.temperatures())
      CHECK(t == 1.0f);
    const std::vector<double> p = a.probabilities(7);
    const double z = std::exp(logits[21]) + std::exp(logits[22]) + std::exp(logits[23]);
    CHECK(p[1] == doctest::Approx(std::exp(logits[22]) / z).epsilon(1e-6));
  }
}

TEST_CASE("agent ea: GNN crossover swaps whole rows between the parents") {
  nn::Gnn<float> pa(small_gnn(), 1), pb(small_gnn(), 2);
  Rng rng(5);
  std::size_t swapped_rows = 0;
  for (int trial = 0; trial < 20; ++trial) {
    nn::ParameterSet<float> a = pa.parameters(), b = pb.parameters();
    agents::gnn_ops::crossover(a, b, rng);
    for (std::size_t t = 0; t < a.layout().tensors().size(); ++t) {
      const nn::TensorSpec& spec = a.layout().tensor(t);
      CAPTURE(spec.name);
      const auto xa = a.tensor(t), xb = b.tensor(t);
      const auto oa = pa.parameters().tensor(t), ob = pb.parameters().tensor(t);
      if (spec.rows == 1) {
        std::size_t differ = 0;
        for (std::size_t i = 0; i < spec.cols; ++i) {
          CHECK(((xa[i] == oa[i] && xb[i] == ob[i]) || (xa[i] == ob[i] && xb[i] == oa[i])));
          differ += xa[i] != oa[i];
        }
        CHECK(differ <= 1);
        continue;
      }
      std::size_t rows_swapped = 0;
      for (std::size_t r = 0; r < spec.rows; ++r) {
        auto row = [&](std::span<const float> v) { return v.subspan(r * spec.cols, spec.cols); };
        auto eq = [](std::span<const float> u, std::span<const float> v) {
          return std::equal(u.begin(), u.end(), v.begin());
        };
        const bool kept = eq(row(xa), row(oa)) && eq(row(xb), row(ob));
        const bool swapped = eq(row(xa), row(ob)) && eq(row(xb), row(oa));
        CHECK((kept || swapped));
        rows_swapped += swapped;
      }
      CHECK(rows_swapped <= static_cast<std::size_t>(0.3 * spec.rows));
      swapped_rows += rows_swapped;
    }
  }
  CHECK(swapped_rows > 0);
}

TEST_CASE("agent ea: GNN mutation changes at most its share of each tensor, and clamps") {
  nn::Gnn<float> g(small_gnn(), 4);
  Rng rng(9);
  std::size_t changed_total = 0;
  for (int trial = 0; trial < 50; ++trial) {
    nn::ParameterSet<float> p = g.parameters();
    agents::gnn_ops::mutate(p, rng);
    for (std::size_t t = 0; t < p.layout().tensors().size(); ++t) {
      const nn::TensorSpec& spec = p.layout().tensor(t);
      CAPTURE(spec.name);
      std::size_t changed = 0;
      for (std::size_t i = 0; i < spec.size(); ++i)
        changed += p.tensor(t)[i] != g.parameters().tensor(t)[i];
      CHECK(changed <= agents::gnn_ops::max_mutations(spec.rows, spec.cols));
      if (spec.rows > 1)
        CHECK(agents::gnn_ops::max_mutations(spec.rows, spec.cols) <=
              std::ceil(0.05 * double(spec.size())));
      changed_total += changed;
    }
  }
  CHECK(changed_total > 0);

  nn::ParameterSet<float> big = g.parameters();
  for (float& w : big.values())
    w = 9e6f;
  for (int trial = 0; trial < 100; ++trial)
    agents::gnn_ops::mutate(big, rng);
  bool clamped = false;
  for (const float w : big.values()) {
    CHECK(std::isfinite(w));
    CHECK(std::abs(w) <= 1e7f);
    clamped = clamped || std::abs(w) == 1e7f;
  }
  CHECK(clamped);
}

// Scores every candidate with a fixed function of its mapping: the share of tensors in memory 0.
void score_generation(Evolution& evolution) {
  const auto candidates = evolution.candidates();
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const Mapping& m = candidates[c].mapping;
    evolution.report(c, double(std::count(m.begin(), m.end(), 0)) / double(m.size()));
  }
}

bool same_individual(const Evolution& x, const Evolution& y, std::size_t i) {
  if (x.kind(i) != y.kind(i)) return false;
  if (x.kind(i) == IndividualKind::chromosome) return x.chromosome(i) == y.chromosome(i);
  const auto u = x.gnn(i).parameters().values(), v = y.gnn(i).parameters().values();
  return std::equal(u.begin(), u.end(), v.begin(), v.end());
}

TEST_CASE("agent ea: elites survive unchanged, migrants replace the worst non-elite GNN") {
  const Resnet50 r50;
  EvolutionConfig config;
  config.population = 8;
  config.hidden = 16;
  config.conv_layers = 2;
  Evolution evolution(config, r50.observation.view(), r50.memories, 1);
  CHECK(evolution.kind(0) == IndividualKind::chromosome);
  CHECK(evolution.kind(3) == IndividualKind::chromosome);
  CHECK(evolution.kind(4) == IndividualKind::gnn);
  for (int g = 0; g < 4; ++g) {
    CAPTURE(g);
    score_generation(evolution);
    REQUIRE(evolution.complete());
    const Evolution before = evolution;
    const nn::Gnn<float> actor(evolution.gnn_config(), 100 + g);
    evolution.migrate(actor);
    evolution.next_generation();
    const std::span<const double> fitness = evolution.fitness();  // of the generation just scored
    std::vector<std::size_t> rank(evolution.size());
    for (std::size_t i = 0; i < rank.size(); ++i)
      rank[i] = i;
    std::stable_sort(rank.begin(), rank.end(),
                     [&](std::size_t a, std::size_t b) { return fitness[a] > fitness[b]; });
    CHECK(same_individual(evolution, before, rank[0]));
    CHECK(same_individual(evolution, before, rank[1]));
    std::size_t worst_gnn = rank.size();
    for (std::size_t r = rank.size(); r-- > 2 && worst_gnn == rank.size();) {
      if (before.kind(rank[r]) == IndividualKind::gnn) worst_gnn = rank[r];
    }
    REQUIRE(worst_gnn < rank.size());
    const auto values = evolution.gnn(worst_gnn).parameters().values();
    CHECK(std::equal(values.begin(), values.end(), actor.parameters().values().begin()));
    // Something else changed.
    std::size_t changed = 0;
    for (std::size_t i = 0; i < evolution.size(); ++i)
      changed += !same_individual(evolution, before, i);
    CHECK(changed >= 2);
  }
  const agents::MigrationStats& stats = evolution.migration_stats();
  CHECK(stats.migrants == 3);  // the last migrant is counted when its generation is selected
  CHECK(stats.elite + stats.selected + stats.discarded == stats.migrants);
  CHECK_THROWS_AS(evolution.migrate(nn::Gnn<float>(small_gnn(), 1)), std::invalid_argument);
}

TEST_CASE("agent ea: the evolution core saved mid-generation continues exactly") {
  const Resnet50 r50;
  EvolutionConfig config;
  config.population = 10;
  config.hidden = 16;
  config.conv_layers = 2;
  config.samples = 2;
  Evolution a(config, r50.observation.view(), r50.memories, 7);
  score_generation(a);
  a.next_generation();
  const auto candidates = a.candidates();
  for (std::size_t c = 0; c < candidates.size() / 2; ++c)
    a.report(c, -double(c));
  StateWriter out;
  a.save(out, "x.");
  config.threads = 2;  // the thread count is not part of the state
  Evolution b(config, r50.observation.view(), r50.memories, 7);
  StateReader in(out.finish(), "test");
  b.load(in, "x.");
  in.expect_end();
  for (Evolution* e : {&a, &b}) {
    const auto cs = e->candidates();
    for (std::size_t c = cs.size() / 2; c < cs.size(); ++c)
      e->report(c, double(c));
    e->next_generation();
    for (int g = 0; g < 3; ++g) {
      score_generation(*e);
      e->next_generation();
    }
  }
  CHECK(std::equal(a.fitness().begin(), a.fitness().end(), b.fitness().begin(), b.fitness().end()));
  for (std::size_t i = 0; i < a.size(); ++i)
    CHECK(same_individual(a, b, i));
  const auto ca = a.candidates(), cb = b.candidates();
  REQUIRE(ca.size() == cb.size());
  for (std::size_t c = 0; c < ca.size(); ++c)
    CHECK(ca[c].mapping == cb[c].mapping);
}

TEST_CASE("agent ea: the memo saves evaluations and changes no decision") {
  const Resnet50 r50;
  EvolutionConfig config;
  config.population = 10;
  config.hidden = 16;
  config.conv_layers = 2;
  config.boltzmann_ratio = 0.3;
  Evolution with(config, r50.observation.view(), r50.memories, 5);
  config.memo = false;
  Evolution without(config, r50.observation.view(), r50.memories, 5);
  std::size_t scored_with = 0, scored_without = 0;
  while (with.generation() < 30) {
    scored_with += with.candidates().size();
    score_generation(with);
    with.next_generation();
  }
  while (without.generation() < with.generation()) {
    CHECK(without.candidates().size() == 10);
    scored_without += without.candidates().size();
    score_generation(without);
    without.next_generation();
  }
  CAPTURE(scored_with);
  CHECK(scored_with < scored_without);
  CHECK(with.memo_size() == scored_with);
  for (std::size_t i = 0; i < with.size(); ++i)
    CHECK(same_individual(with, without, i));
  CHECK(std::equal(with.fitness().begin(), with.fitness().end(), without.fitness().begin(),
                   without.fitness().end()));
}

TEST_CASE("agent ea: proposals are split when the limit is below the generation") {
  const Resnet50 r50;
  agents::AgentSetup setup;
  setup.context =
      make_placement_context(ModelSpec::from_options(r50.env->options()), ModelVersion::v0);
  setup.observation = r50.observation;
  setup.seed = 2;
  setup.hyperparameters = resolve_options("ea", agents::find_agent("ea").hyperparameters,
                                          {{"hidden", "16"}, {"population", "10"}});
  const auto agent = agents::make_agent("ea", setup);
  std::size_t proposed = 0;
  for (int call = 0; call < 4; ++call) {
    const std::vector<Mapping> batch = agent->propose(3);
    REQUIRE(!batch.empty());
    CHECK(batch.size() <= 3);
    std::vector<agents::Outcome> outcomes(batch.size());
    agent->learn(batch, outcomes);
    proposed += batch.size();
  }
  CHECK(agent->status().rfind("generation ", 0) == 0);
  CHECK(agent->status().find("generation 0,") == std::string::npos);  // one was completed
}

TEST_CASE("agent ea: bad hyperparameters are refused with the field named") {
  TempDir dir;
  agents::TrainConfig config;
  config.agent = "ea";
  config.budget = 10;
  config.hyperparameters = {{"population", "2"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "a"),
                       doctest::Contains("hyperparameter population=2"), InputError);
  config.hyperparameters = {{"population", "5"}, {"tournament", "6"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "b"), doctest::Contains("tournament"),
                       InputError);
  config.hyperparameters = {{"boltzmann_ratio", "1.5"}};
  CHECK_THROWS_WITH_AS(agents::Trainer(config, dir.path / "c"),
                       doctest::Contains("boltzmann_ratio"), InputError);
}

}  // namespace
}  // namespace memplace
