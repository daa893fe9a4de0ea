// The reference mappings of one workload, for `info` and `references`.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "env/model/references.hpp"
#include "env/optimum/certificate.hpp"

namespace memplace::cli {

struct ReferenceRow {
  std::string name;
  TimeFs latency_fs;
  double speedup;  // over the compiler mapping
};

// all-<slowest memory>, compiler, then from the shipped certificate (if there is one for this
// model) `optimum` when proven, else `best-known` and `optimum-bound`, then `capacity-free-bound`.
// Under streaming: all-<slowest>, pinned-compiler (the pinned greedy, scored under streaming),
// compiler (the streaming-aware one), then the capacity-free, slowest-port and compute bounds.
std::vector<ReferenceRow> reference_rows(const Simulator& sim,
                                         const std::optional<optimum::Certificate>& certificate);
nlohmann::json reference_json(const std::vector<ReferenceRow>& rows);

// One line under a reference table: where the optimum rows come from, or how to get them.
std::string optimum_note(const Simulator& sim, const std::optional<optimum::Certificate>& c);

}  // namespace memplace::cli
