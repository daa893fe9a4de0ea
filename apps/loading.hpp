// Options shared by the commands that build a simulator: which hardware, which memory-time rule,
// which dynamics.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "env/model/simulator.hpp"

namespace memplace::cli {

struct SimulatorSpec {
  std::string hardware = "nnpi";
  std::string memory_time;  // empty: the hardware model's own
  std::string dynamics = "pinned";
  std::optional<std::int64_t> lookahead;  // overrides the hardware model's dma.lookahead

  // Adds --hardware and --memory-time to a subcommand, and --dynamics and --lookahead unless
  // the command models the pinned dynamics only (memplace optimum).
  void add_options(CLI::App& cmd, bool with_dynamics = true);
  Simulator build(const std::string& workload) const;
  Simulator build(Workload workload) const;
  // With a hardware model already loaded (the --hardware option is ignored).
  Simulator build(Workload workload, Hardware hardware) const;
};

}  // namespace memplace::cli
