// Options shared by the commands that build a simulator: which hardware, which memory-time rule.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "env/simulator.hpp"

namespace memplace::cli {

struct SimulatorSpec {
  std::string hardware = "nnpi";
  std::string memory_time;  // empty: the hardware model's own

  // Adds --hardware and --memory-time to a subcommand.
  void add_options(CLI::App& cmd);
  Simulator build(const std::string& workload) const;
  Simulator build(Workload workload) const;
  // With a hardware model already loaded (the --hardware option is ignored).
  Simulator build(Workload workload, Hardware hardware) const;
};

}  // namespace memplace::cli
