// Which cost model, by name: the workload, the hardware model, the memory-time rule, the dynamics
// and the DMA's lookahead. It is the one description of a simulator that every place uses — the
// environments (their options), the train and table configs, the command line
// (apps/shared/cli_model.hpp) and the Python Simulator — with one build() into a Simulator and one
// conversion to and from options by name. A new dynamics (model/dynamics.hpp) is a choice of the
// `dynamics` option with no edit here; a new field of the model (another option) is added here
// and nowhere else.
//
// The cost model's versions are the environments' (-v0, -v1, -v2; docs/envs/README.md): what a
// version adds is the options it exposes and their defaults. v0 is the pinned dynamics; v1 adds
// `dynamics` (streaming by default: cost model v1) and `lookahead`, and the observation's
// streaming features; v2 makes the addressed dynamics (cost model v2) the default.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/options.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/workload.hpp"
#include "model/simulator.hpp"

namespace memplace {

enum class ModelVersion : std::uint8_t { v0, v1, v2 };
inline constexpr std::array kModelVersions = {ModelVersion::v0, ModelVersion::v1, ModelVersion::v2};
std::string_view version_name(ModelVersion version);
// "v0", "v1" or "v2"; InputError naming the versions for anything else.
ModelVersion parse_version(std::string_view name);
// The dynamics a version runs by default, the one that brought it (DynamicsModel::cost_model):
// pinned under v0, streaming under v1, addressed under v2.
Dynamics default_dynamics(ModelVersion version);

struct ModelSpec {
  std::string workload = "resnet50";                     // a shipped name or a workload file
  std::string hardware = std::string(kDefaultHardware);  // a shipped name or a hardware file
  std::optional<MemoryTimeCombine> memory_time;          // none: the hardware model's rule
  Dynamics dynamics = Dynamics::pinned;
  std::optional<std::int64_t> lookahead;  // none: the hardware model's dma.lookahead

  // The simulator it names; InputError if the workload or the hardware does not load.
  Simulator build() const;
  std::shared_ptr<const Simulator> build_shared() const;
  // With the workload and hardware already loaded (the names above are not read).
  Simulator build(Workload loaded_workload, Hardware loaded_hardware) const;

  // The options of `version` (workload, hardware, memory_time; from v1 on dynamics and
  // lookahead), as names and defaults ("hardware": the hardware model's own value).
  static std::vector<OptionSpec> option_specs(ModelVersion version);
  // This spec as those options, every one present: make(id, options) names it again.
  OptionMap to_options(ModelVersion version) const;
  // From options resolved against option_specs (an option that is absent keeps its default);
  // InputError for a value that is not one (a lookahead that is neither 'hardware' nor a
  // non-negative integer).
  static ModelSpec from_options(const OptionMap& resolved);
  // InputError unless `version` can express this spec (v0: pinned, no lookahead; v1: not
  // addressed).
  void require_version(ModelVersion version) const;

  friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

}  // namespace memplace
