#include "model/dynamics.hpp"

namespace memplace {

namespace {

const std::vector<const DynamicsModel*>& registry() {
#define MEMPLACE_LIST_DYNAMICS(function) &function(),
  static const std::vector<const DynamicsModel*> models = {
      MEMPLACE_DYNAMICS(MEMPLACE_LIST_DYNAMICS)};
#undef MEMPLACE_LIST_DYNAMICS
  return models;
}

}  // namespace

const DynamicsModel& Dynamics::model() const {
  return *registry().at(index_);
}

std::string_view Dynamics::name() const {
  return model().name();
}

std::vector<Dynamics> Dynamics::all() {
  std::vector<Dynamics> all;
  for (std::size_t i = 0; i < registry().size(); ++i)
    all.push_back(Dynamics(static_cast<std::uint8_t>(i)));
  return all;
}

std::optional<Dynamics> Dynamics::from_name(std::string_view name) {
  for (const Dynamics d : all())
    if (d.name() == name) return d;
  return std::nullopt;
}

std::string_view dynamics_name(Dynamics d) {
  return d.name();
}

std::optional<Dynamics> dynamics_from_name(std::string_view name) {
  return Dynamics::from_name(name);
}

std::vector<std::string> dynamics_names() {
  std::vector<std::string> names;
  for (const Dynamics d : Dynamics::all())
    names.emplace_back(d.name());
  return names;
}

bool has_dma(Dynamics d) {
  return d.model().runs_dma();
}

std::optional<std::size_t> DynamicsModel::unplaceable_memory(const Simulator&,
                                                             std::span<const MemoryIndex>) const {
  return std::nullopt;
}

}  // namespace memplace
