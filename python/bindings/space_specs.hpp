// Plain descriptions of the C++ spaces, from which python/memplace/spaces.py builds its objects.
#pragma once

#include "env/observation.hpp"
#include "env/spaces.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

// {"kind": "discrete", "n": n} or {"kind": "multi_discrete", "nvec": [...]}.
py::dict space_spec(const Space& space);
// {"num_nodes", "static_features", "dynamic_features", "num_edges", "mask_size", "feature_names"}.
py::dict observation_spec(const ObservationView& obs);

}  // namespace memplace::python
