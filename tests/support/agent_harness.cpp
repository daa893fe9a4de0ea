#include "tests/support/agent_harness.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "base/rng.hpp"
#include "model/references.hpp"
#include "tests/support/toy.hpp"

namespace memplace::testing {

namespace fs = std::filesystem;

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path = fs::temp_directory_path() /
         ("memplace-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(path);
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

ToyProblem make_toy_problem(const fs::path& dir, std::uint64_t seed) {
  ToyProblem toy;
  const Workload workload = toy::random_workload(seed, 6);
  const Hardware hardware = toy::hardware_levels(3);
  toy.workload = dir / ("toy" + std::to_string(seed) + ".yaml");
  toy.hardware = dir / "toy-hardware.yaml";
  workload.save(toy.workload);
  {
    std::ofstream out(toy.hardware);
    out << hardware.to_yaml();
  }
  const Simulator sim(workload, hardware);
  const TimeFs compiler = sim.evaluate(compiler_mapping(sim)).latency_fs;
  // Every mapping, as a base-3 counter over the 12 tensors.
  Mapping m(sim.num_tensors(), 0);
  TimeFs best = 0;
  double random_sum = 0;
  std::size_t count = 0;
  Evaluation eval;
  while (true) {
    sim.evaluate(m, eval);
    ++count;
    if (eval.valid) {
      random_sum += speedup(compiler, eval.latency_fs);
      if (best == 0 || eval.latency_fs < best) best = eval.latency_fs;
    }
    std::size_t i = 0;
    while (i < m.size() && ++m[i] == sim.num_memories())
      m[i++] = 0;
    if (i == m.size()) break;
  }
  toy.optimum_speedup = speedup(compiler, best);
  toy.mean_random_speedup = random_sum / static_cast<double>(count);
  return toy;
}

agents::TrainConfig toy_config(const ToyProblem& toy, const std::string& agent,
                               std::uint64_t budget, std::uint64_t seed) {
  agents::TrainConfig config;
  config.agent = agent;
  config.model.workload = toy.workload.string();
  config.model.hardware = toy.hardware.string();
  config.budget = budget;
  config.seed = seed;
  return config;
}

agents::TrainResult train_on(const ToyProblem& toy, const std::string& agent, std::uint64_t budget,
                             std::uint64_t seed, int threads, const fs::path& dir,
                             const OptionMap& hyperparameters) {
  agents::TrainConfig config = toy_config(toy, agent, budget, seed);
  config.threads = threads;
  config.hyperparameters = hyperparameters;
  static std::atomic<int> runs{0};
  agents::Trainer trainer(config, dir / ("run-" + agent + "-" + std::to_string(runs++)));
  return trainer.run();
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string curve_without_wall(const fs::path& run) {
  std::istringstream in(read_text(run / "curve.csv"));
  std::string line, out;
  while (std::getline(in, line)) {
    const auto first = line.find(','), second = line.find(',', first + 1);
    out += line.substr(0, first) + line.substr(second) + "\n";
  }
  return out;
}

namespace {

void check_runs_match(const fs::path& a, const fs::path& b) {
  CHECK(curve_without_wall(a) == curve_without_wall(b));
  CHECK(read_text(a / "best_mapping.yaml") == read_text(b / "best_mapping.yaml"));
}

}  // namespace

void check_resume_matches(const agents::TrainConfig& config, const fs::path& dir, int stop_after) {
  agents::Trainer(config, dir / "whole").run();
  {
    agents::Trainer first(config, dir / "parts");
    int batches = 0;
    CHECK(first.run({}, [&] { return ++batches == stop_after; }).interrupted);
  }
  agents::Trainer rest = agents::Trainer::resume(dir / "parts");
  CHECK_FALSE(rest.run().interrupted);
  check_runs_match(dir / "whole", dir / "parts");
}

void check_reaches_toy_optimum(const std::string& agent, std::uint64_t budget,
                               std::span<const std::uint64_t> problems, std::uint64_t seeds,
                               const OptionMap& hyperparameters) {
  TempDir dir;
  for (const std::uint64_t problem : problems) {
    const ToyProblem toy = make_toy_problem(dir.path, problem);
    CAPTURE(agent);
    CAPTURE(problem);
    CAPTURE(toy.optimum_speedup);
    for (std::uint64_t seed = 0; seed < seeds; ++seed) {
      CAPTURE(seed);
      const agents::TrainResult run =
          train_on(toy, agent, budget, seed, 1, dir.path, hyperparameters);
      REQUIRE(run.best_mapping);
      CHECK(run.best_speedup == doctest::Approx(toy.optimum_speedup).epsilon(1e-12));
    }
  }
}

void check_threads_match(agents::TrainConfig config, const fs::path& dir) {
  config.threads = 1;
  agents::Trainer(config, dir / "threads1").run();
  config.threads = 2;
  agents::Trainer(config, dir / "threads2").run();
  check_runs_match(dir / "threads1", dir / "threads2");
}

}  // namespace memplace::testing
