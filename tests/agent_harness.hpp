// Shared by the agents' tests: toy problems small enough to brute-force, and a one-call way to
// train an agent on one through the real trainer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "agents/trainer.hpp"
#include "env/simulator.hpp"

namespace memplace::testing {

// A temporary folder, removed with everything in it when this goes out of scope.
struct TempDir {
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path path;
};

// A toy problem on disk: a random 6-layer workload (12 tensors, 3^12 = 531,441 mappings) on the
// 3-memory toy hardware, with capacities that make many mappings invalid.
struct ToyProblem {
  std::filesystem::path workload;  // YAML files in `dir`
  std::filesystem::path hardware;
  double optimum_speedup = 0;  // the best valid mapping's speedup over the compiler, brute-forced
  double mean_random_speedup = 0;  // mean over uniform random mappings, invalid counted as 0
};
ToyProblem make_toy_problem(const std::filesystem::path& dir, std::uint64_t seed);

// Trains `agent` on the toy problem through agents::Trainer in a fresh folder under `dir`.
agents::TrainResult train_on(const ToyProblem& toy, const std::string& agent, std::uint64_t budget,
                             std::uint64_t seed, int threads, const std::filesystem::path& dir,
                             const OptionMap& hyperparameters = {});

}  // namespace memplace::testing
