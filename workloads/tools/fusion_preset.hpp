// The ONNX importer's fusion presets: an import option (onnx_import.hpp) that the fusion
// (fusion.hpp) applies, in a file of its own so that neither includes the other.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memplace {

// How much of the ONNX graph becomes one layer.
enum class FusionPreset : std::uint8_t {
  none,      // every ONNX node that computes on run-time data is a layer (op level)
  standard,  // conv + epilogue, GELU chain, decomposed LayerNorm, Pad into its consumer (EGRL)
  coarse,    // standard, then bias adds, reshapes, transposes and other elementwise or
             // data-movement layers fold into the layer that produces their input
};
std::string_view fusion_preset_name(FusionPreset preset);
std::optional<FusionPreset> fusion_preset_from_name(std::string_view name);
std::vector<std::string> fusion_preset_names();

}  // namespace memplace
