// The reference mappings of one workload, for `info` and `references`.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "model/model_spec.hpp"
#include "optimum/headroom.hpp"

namespace memplace::cli {

struct ReferenceRow {
  std::string name;
  TimeFs latency_fs;
  double speedup;  // over the compiler mapping
};

// The headroom of `sim` (optimum/headroom.hpp) as rows: all-<slowest memory>, compiler, then
// from the shipped certificate (if there is one for this model) `optimum` when proven, else
// `best-known` and `optimum-bound`, then `capacity-free-bound`. Under streaming: all-<slowest>,
// pinned-compiler (the pinned greedy, scored under streaming), compiler (the streaming-aware one),
// best-known, then the capacity-free, slowest-port, compute and capacity-aware bounds.
std::vector<ReferenceRow> reference_rows(const optimum::Headroom& headroom, const Simulator& sim);
nlohmann::json reference_json(const std::vector<ReferenceRow>& rows);

// One line under a reference table: where the optimum rows come from, or how to get them.
// `model`: what `sim` was built from, as the user gave it (the hint names the same command).
std::string optimum_note(const Simulator& sim, const std::optional<optimum::Certificate>& c,
                         const ModelSpec& model);

}  // namespace memplace::cli
