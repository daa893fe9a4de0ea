#include "apps/run_options.hpp"

#include "env/env_options.hpp"

namespace memplace::cli {

void add_run_options(CLI::App& cmd, agents::TrainConfig& config,
                     std::vector<std::string>& hyperparameters) {
  cmd.add_option("--hardware", config.hardware, "A shipped hardware model or a YAML file")
      ->capture_default_str();
  cmd.add_option("--budget", config.budget, "Simulator evaluations to spend")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->capture_default_str();
  cmd.add_option("--seed", config.seed, "Seed of the run")->capture_default_str();
  cmd.add_option("--threads", config.threads, "Threads (0: every core); never changes results")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  cmd.add_option("-p,--param", hyperparameters,
                 "An agent hyperparameter as name=value (repeatable; docs/agents.md)");
}

void apply_hyperparameters(const std::vector<std::string>& assignments,
                           agents::TrainConfig& config) {
  for (const std::string& a : assignments)
    parse_option_assignment(a, config.hyperparameters);
}

}  // namespace memplace::cli
