// Optimum certificates: they round-trip, refuse tampering and stale models, and every shipped one
// applies to its shipped workload, is re-scored exactly and beats every published result.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "model/inputs/embedded.hpp"
#include "model/inputs/workload.hpp"
#include "model/references.hpp"
#include "optimum/certificate.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

using optimum::Certificate;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string refusal(const std::string& text, const Simulator& sim) {
  try {
    optimum::parse_certificate(text, "cert.yaml", sim);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

struct Solved {
  Simulator sim;
  Certificate certificate;
};

Solved solved_toy() {
  Simulator sim(toy::random_workload(3, 8), toy::hardware_levels(3));
  optimum::SolverOptions options;
  options.time_limit_s = 60;
  const optimum::Solution s = optimum::solve(sim, options);
  Certificate c = optimum::make_certificate(sim, s, options);
  return {std::move(sim), std::move(c)};
}

TEST_CASE("certificates: a certificate reads back as written, and replays as a mapping file") {
  const auto [sim, c] = solved_toy();
  const std::string text = optimum::certificate_yaml(sim, c);
  const Certificate back = optimum::parse_certificate(text, "cert.yaml", sim);
  CHECK(back.status == c.status);
  CHECK(back.mapping == c.mapping);
  CHECK(back.latency_fs == c.latency_fs);
  CHECK(back.bound_fs == c.bound_fs);
  CHECK(back.model == optimum::model_fingerprint(sim));
  CHECK(back.solver == optimum::solver_version());
  CHECK(back.nodes == c.nodes);
  CHECK(back.threads == 1);
  CHECK(back.time_limit_s == 60);
  CHECK(optimum::certificate_yaml(sim, back).size() == text.size());
}

TEST_CASE("certificates: tampered or foreign certificates are refused with the field named") {
  const auto [sim, c] = solved_toy();
  const std::string text = optimum::certificate_yaml(sim, c);
  const std::string latency = "latency_fs: " + std::to_string(c.latency_fs);
  CHECK(refusal(replaced(text, latency, "latency_fs: " + std::to_string(c.latency_fs - 1)), sim)
            .find("result: does not reproduce") != std::string::npos);
  CHECK(refusal(replaced(text, "status: optimal", "status: proven"), sim)
            .find("optimum.status: expected optimal") != std::string::npos);
  CHECK(refusal(replaced(text, "bound_fs: ", "bound_fs: 9"), sim).find("optimum.bound_fs") !=
        std::string::npos);
  CHECK(refusal(replaced(text, "  status:", "  colour: red\n  status:"), sim)
            .find("optimum.colour: unknown field") != std::string::npos);
  // The same workload under the other memory-time rule is another problem.
  SimulatorOptions sum;
  sum.memory_time = MemoryTimeCombine::sum;
  const Simulator other(sim.workload(), sim.hardware(), sum);
  CHECK(refusal(text, other).find("for memory time max, not sum") != std::string::npos);
  // A workload edited under the same name: another model.
  std::vector<Layer> layers(sim.workload().layers().begin(), sim.workload().layers().end());
  layers[2].macs += 1;
  const Simulator edited(Workload(sim.workload().info(), layers), sim.hardware());
  CHECK(refusal(text, edited).find("optimum.model: solved for another version") !=
        std::string::npos);
}

TEST_CASE("certificates: the fingerprint sees the model, not its names") {
  const Simulator a(toy::random_workload(4, 6), toy::hardware_levels(3));
  WorkloadInfo renamed = a.workload().info();
  renamed.description = "another description";
  const Simulator b(Workload(renamed, {a.workload().layers().begin(), a.workload().layers().end()}),
                    a.hardware());
  CHECK(optimum::model_fingerprint(a) == optimum::model_fingerprint(b));
  Hardware smaller = a.hardware();
  smaller.memories[0].capacity_bytes -= 1;
  CHECK(optimum::model_fingerprint(Simulator(a.workload(), smaller)) !=
        optimum::model_fingerprint(a));
  SimulatorOptions sum;
  sum.memory_time = MemoryTimeCombine::sum;
  CHECK(optimum::model_fingerprint(Simulator(a.workload(), a.hardware(), sum)) !=
        optimum::model_fingerprint(a));
}

Simulator shipped_simulator(const std::string& workload, const std::string& hardware,
                            MemoryTimeCombine rule) {
  SimulatorOptions options;
  options.memory_time = rule;
  return Simulator(load_workload(workload), load_hardware(hardware), options);
}

TEST_CASE("certificates: every shipped workload, hardware and rule has one that re-checks") {
  for (const std::string& workload : embedded_workload_names()) {
    for (const std::string& hardware : embedded_hardware_names()) {
      for (const MemoryTimeCombine rule : {MemoryTimeCombine::max, MemoryTimeCombine::sum}) {
        const Simulator sim = shipped_simulator(workload, hardware, rule);
        CAPTURE(optimum::certificate_name(sim));
        // Read, fingerprint-checked and re-scored by the simulator.
        const auto c = optimum::shipped_certificate(sim);
        REQUIRE(c);
        CHECK(c->latency_fs <= sim.evaluate(compiler_mapping(sim)).latency_fs);
        CHECK(c->bound_fs <= c->latency_fs);
        CHECK(c->bound_fs >= lower_bound_fs(sim));
        CHECK(c->solver_objective_fs ==
              doctest::Approx(static_cast<double>(c->latency_fs)).epsilon(1e-9));
      }
    }
  }
  CHECK(embedded_certificates().size() ==
        2 * embedded_workload_names().size() * embedded_hardware_names().size());
}

TEST_CASE("certificates: resnet50 and bert-base are proven optimal") {
  for (const std::string workload : {"resnet50", "bert-base"}) {
    const auto c =
        optimum::shipped_certificate(shipped_simulator(workload, "nnpi", MemoryTimeCombine::max));
    REQUIRE(c);
    CHECK(c->proven());
  }
}

// docs/results/table.csv: workload,agent,seeds,valid_seeds,mean,std,best,...
std::map<std::string, double> best_published_speedups() {
  std::ifstream in(std::string(MEMPLACE_SOURCE_DIR) + "/docs/results/table.csv");
  std::string line;
  std::getline(in, line);
  std::map<std::string, double> best;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(row, cell, ',');)
      cells.push_back(cell);
    REQUIRE(cells.size() >= 7);
    best[cells[0]] = std::max(best[cells[0]], std::stod(cells[6]));
  }
  return best;
}

TEST_CASE("certificates: the optimum beats every result in docs/results") {
  const auto published = best_published_speedups();
  REQUIRE(published.size() == 3);
  for (const auto& [workload, speedup_published] : published) {
    CAPTURE(workload);
    const Simulator sim = shipped_simulator(workload, "nnpi", MemoryTimeCombine::max);
    const auto c = optimum::shipped_certificate(sim);
    REQUIRE(c);
    const double optimum_speedup =
        speedup(sim.evaluate(compiler_mapping(sim)).latency_fs, c->latency_fs);
    // The CSV rounds to 6 decimals.
    CHECK(optimum_speedup >= speedup_published - 5e-7);
  }
}

}  // namespace
}  // namespace memplace
