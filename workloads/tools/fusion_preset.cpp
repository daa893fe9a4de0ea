#include "workloads/tools/fusion_preset.hpp"

#include <array>
#include <utility>

namespace memplace {

namespace {

constexpr std::array<std::pair<FusionPreset, std::string_view>, 3> kPresets = {{
    {FusionPreset::none, "none"},
    {FusionPreset::standard, "standard"},
    {FusionPreset::coarse, "coarse"},
}};

}  // namespace

std::string_view fusion_preset_name(FusionPreset preset) {
  for (const auto& [p, name] : kPresets) {
    if (p == preset) return name;
  }
  return "unknown";
}

std::optional<FusionPreset> fusion_preset_from_name(std::string_view name) {
  for (const auto& [p, n] : kPresets) {
    if (n == name) return p;
  }
  return std::nullopt;
}

std::vector<std::string> fusion_preset_names() {
  std::vector<std::string> names;
  for (const auto& [p, name] : kPresets)
    names.emplace_back(name);
  return names;
}

}  // namespace memplace
