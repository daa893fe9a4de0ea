// A training run's folder and the names of what it holds (docs/agents.md, "The run folder"): its
// config, its checkpoint, its learning curve and its best mapping.
#pragma once

#include <filesystem>

namespace memplace::agents {

struct RunFolder {
  std::filesystem::path dir;

  std::filesystem::path config() const { return dir / "config.yaml"; }
  std::filesystem::path checkpoint() const { return dir / "checkpoint.bin"; }
  std::filesystem::path curve() const { return dir / "curve.csv"; }
  std::filesystem::path best_mapping() const { return dir / "best_mapping.yaml"; }

  // Whether a run was started here, and whether it can be continued.
  bool has_run() const { return std::filesystem::exists(config()); }
  bool resumable() const { return std::filesystem::exists(checkpoint()); }
};

}  // namespace memplace::agents
