// The contract every registered dynamics keeps (model/dynamics.hpp), checked for each of them
// with no edit when one is added (docs/architecture.md, "Adding a dynamics"): its name and cost
// model, the model spec's options, deterministic evaluations that copies and mapping files
// reproduce, incremental moves equal to full evaluations, a valid compiler mapping, rectify, the
// reference bound, and bytes in use that no dynamics changes. The environments' conformance test
// (tests/env/test_env_conformance.cpp) takes it through every env id and option value.
#include <doctest/doctest.h>

#include <random>
#include <set>

#include "model/dynamics/incremental_streaming.hpp"
#include "model/inputs/procedural.hpp"
#include "model/mapping_io.hpp"
#include "model/model_spec.hpp"
#include "model/rectify.hpp"
#include "model/references.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

// Small cases of every shape the dynamics meet: 2 to 4 toy memory levels with random DAGs, and a
// procedural CNN on each shipped chip.
std::vector<std::pair<Workload, Hardware>> cases() {
  std::vector<std::pair<Workload, Hardware>> all;
  for (std::size_t levels = 2; levels <= 4; ++levels)
    all.emplace_back(toy::random_workload(40 + levels, 12), toy::hardware_levels(levels));
  for (const std::string& chip : embedded_hardware_names())
    all.emplace_back(procedural_workload(ProceduralKind::cnn, 7), load_hardware(chip));
  return all;
}

Simulator simulator(const std::pair<Workload, Hardware>& c, Dynamics d) {
  return Simulator(c.first, c.second, {.memory_time = std::nullopt, .dynamics = d});
}

TEST_CASE("dynamics conformance: names, cost models and the model spec's options") {
  std::set<std::string_view> names;
  for (const Dynamics d : Dynamics::all()) {
    CAPTURE(d.name());
    CHECK(names.insert(d.name()).second);
    CHECK(Dynamics::from_name(d.name()) == d);
    CHECK(!d.model().summary().empty());
    CHECK(!d.model().compiler_name().empty());
    REQUIRE(d.model().cost_model() < kModelVersions.size());
    for (const ModelVersion v : kModelVersions) {
      ModelSpec spec;
      spec.dynamics = d;
      if (static_cast<std::size_t>(v) < d.model().cost_model()) {
        CHECK_THROWS_AS(spec.require_version(v), InputError);
        continue;
      }
      if (v == ModelVersion::v0) continue;  // v0 has no dynamics option
      CHECK(ModelSpec::from_options(spec.to_options(v)) == spec);
      std::vector<std::string> choices;
      for (const OptionSpec& o : ModelSpec::option_specs(v))
        if (o.name == "dynamics") choices = o.choices;
      CHECK(std::find(choices.begin(), choices.end(), d.name()) != choices.end());
      CHECK(choices.front() == default_dynamics(v).name());
    }
  }
  CHECK(Dynamics::pinned.name() == "pinned");
  CHECK(Dynamics::streaming.name() == "streaming");
  CHECK(Dynamics::addressed.name() == "addressed");
  CHECK(!Dynamics::from_name("no-such-dynamics"));
}

TEST_CASE("dynamics conformance: evaluations, references and rectify on every case") {
  for (const Dynamics d : Dynamics::all()) {
    CAPTURE(d.name());
    for (const auto& c : cases()) {
      CAPTURE(c.first.name());
      CAPTURE(c.second.name);
      const Simulator sim = simulator(c, d);
      const Simulator pinned = simulator(c, Dynamics::pinned);
      const Simulator copy = sim;  // NOLINT: a copy must evaluate the same
      const TimeFs bound = reference_latencies(sim).lower_bound_fs;
      std::mt19937_64 rng(11);
      for (int draw = 0; draw < 6; ++draw) {
        const Mapping m = toy::random_mapping(rng, sim.num_tensors(), sim.num_memories());
        const Evaluation e = sim.evaluate(m);
        const Evaluation again = copy.evaluate(m);
        CHECK(e.latency_fs == again.latency_fs);
        CHECK(e.valid == again.valid);
        CHECK(e.layer_fs == again.layer_fs);
        CHECK(e.layer_fs.size() == sim.num_layers());
        TimeFs sum = 0;
        for (const TimeFs t : e.layer_fs)
          sum += t;
        CHECK(sum == e.latency_fs);
        // Bytes in use are the mapping's under every dynamics: a valid mapping fits.
        if (e.valid) CHECK(pinned.evaluate(m).valid);
        if (e.valid) CHECK(e.latency_fs >= bound);
        const Rectified r = rectify(sim, m);
        if (r.valid) CHECK(sim.evaluate(r.mapping).valid);
      }
      const Mapping compiler = compiler_mapping(sim);
      if (sim.evaluate(all_slowest_mapping(sim)).valid) {
        CHECK(sim.evaluate(compiler).valid);
        CHECK(sim.evaluate(compiler).latency_fs >= bound);
      }
      // A mapping file scored under this dynamics names it, and replays exactly.
      const Evaluation scored = sim.evaluate(compiler);
      const MappingFile file = parse_mapping(
          mapping_to_yaml(sim, compiler, RecordedResult{scored.latency_fs, scored.valid}), "x",
          sim);
      CHECK(file.header.model.dynamics == d);
      CHECK(file.header.scored_like(sim));
      CHECK(file.mapping == compiler);
    }
  }
}

TEST_CASE("dynamics conformance: incremental moves equal full evaluations") {
  for (const Dynamics d : Dynamics::all()) {
    CAPTURE(d.name());
    for (const auto& c : cases()) {
      const Simulator sim = simulator(c, d);
      std::mt19937_64 rng(5);
      IncrementalStreamingEvaluator ev(
          sim, toy::random_mapping(rng, sim.num_tensors(), sim.num_memories()));
      for (int move = 0; move < 25; ++move) {
        const std::size_t t = rng() % sim.num_tensors();
        const auto m = static_cast<MemoryIndex>(rng() % sim.num_memories());
        ev.move(t, m);
        const Evaluation full = sim.evaluate(ev.mapping());
        REQUIRE(ev.latency_fs() == full.latency_fs);
        REQUIRE(ev.valid() == full.valid);
        for (std::size_t l = 0; l < sim.num_layers(); ++l)
          REQUIRE(ev.layer_fs(l) == full.layer_fs[l]);
      }
    }
  }
}

}  // namespace
}  // namespace memplace
