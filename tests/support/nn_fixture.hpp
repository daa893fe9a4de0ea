// The observations the GNN reference test and the GNN benchmark share with the PyTorch peer
// (bench/peers/gnn_torch.py): real single-step observations, written to JSON so that Python can
// read them without the C++ library.
#pragma once

#include <string>
#include <vector>

#include "env/observation.hpp"

namespace memplace::testing {

// The single-step observations of `workload`: after reset (every tensor in DRAM), then after
// scoring the compiler mapping (the dynamic columns show it).
std::vector<Observation> fixture_observations(const std::string& workload);

// {"workload", "memories", "graphs": [{"num_nodes", "num_features", "nodes", "edges"}, ...]},
// floats with 9 significant digits (they read back bit-identical).
std::string observations_json(const std::string& workload, const std::vector<Observation>& graphs,
                              int memories);

std::string fixture_path(const std::string& file);  // tests/data/gnn/<file> in the source tree

}  // namespace memplace::testing
