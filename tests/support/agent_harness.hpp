// Shared by the agents' tests: toy problems small enough to brute-force, and a one-call way to
// train an agent on one through the real trainer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "agents/training/trainer.hpp"
#include "model/simulator.hpp"
#include "tests/support/sanitized.hpp"

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

// A train config for `agent` on the toy problem (other fields at their defaults).
agents::TrainConfig toy_config(const ToyProblem& toy, const std::string& agent,
                               std::uint64_t budget, std::uint64_t seed);

// Trains `agent` on the toy problem through agents::Trainer in a fresh folder under `dir`.
agents::TrainResult train_on(const ToyProblem& toy, const std::string& agent, std::uint64_t budget,
                             std::uint64_t seed, int threads, const std::filesystem::path& dir,
                             const OptionMap& hyperparameters = {});

// Trains `agent` for `budget` evaluations on each toy problem with each of seeds 0 .. seeds-1
// and checks that every run ends at the brute-forced optimum.
void check_reaches_toy_optimum(const std::string& agent, std::uint64_t budget,
                               std::span<const std::uint64_t> problems, std::uint64_t seeds,
                               const OptionMap& hyperparameters = {});

// A file's whole text ("" if it cannot be read).
std::string read_text(const std::filesystem::path& path);
// A run folder's curve.csv without its wall-clock column (the only one that differs between
// reruns).
std::string curve_without_wall(const std::filesystem::path& run);

// Trains `config` into dir/whole, and again into dir/parts stopped after `stop_after` batches and
// resumed from its checkpoint; checks that both end with the same curve and best mapping.
void check_resume_matches(const agents::TrainConfig& config, const std::filesystem::path& dir,
                          int stop_after);
// Trains `config` on 1 and on 2 threads (into dir/threads1, dir/threads2); checks that both end
// with the same curve and best mapping.
void check_threads_match(agents::TrainConfig config, const std::filesystem::path& dir);

}  // namespace memplace::testing
