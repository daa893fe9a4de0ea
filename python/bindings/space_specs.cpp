#include "python/bindings/space_specs.hpp"

namespace memplace::python {

py::dict space_spec(const Space& space) {
  py::dict d;
  if (const auto* discrete = std::get_if<Discrete>(&space)) {
    d["kind"] = "discrete";
    d["n"] = discrete->n;
  } else if (const auto* multi = std::get_if<MultiDiscrete>(&space)) {
    d["kind"] = "multi_discrete";
    d["nvec"] = multi->nvec;
  } else {
    throw py::value_error("no Python action space for " + describe(space));
  }
  return d;
}

py::dict observation_spec(const ObservationView& obs) {
  py::dict d;
  d["num_nodes"] = obs.num_nodes();
  d["static_features"] = obs.graph->num_features;
  d["dynamic_features"] = obs.dynamic_features;
  d["num_edges"] = obs.graph->num_edges();
  d["mask_size"] = obs.action_mask.size();
  d["feature_names"] = obs.graph->feature_names;
  py::list state_names;
  for (const std::string_view name : obs.dynamic_names)
    state_names.append(py::str(name.data(), name.size()));
  d["state_names"] = state_names;
  d["occupancy_shape"] = obs.occupancy_shape;  // all zero: no occupancy grid
  return d;
}

}  // namespace memplace::python
