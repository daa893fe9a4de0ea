#include "tests/support/nn_fixture.hpp"

#include <nlohmann/json.hpp>

#include "env/registry.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"

namespace memplace::testing {

std::vector<Observation> fixture_observations(const std::string& workload) {
  const std::unique_ptr<Env> env = make("memplace/single-step/" + workload + "-v0");
  std::vector<Observation> out;
  out.push_back(env->reset(0).obs.copy());
  const Simulator sim(load_workload(workload), load_hardware("nnpi"));
  const Mapping compiler = compiler_mapping(sim);
  const std::vector<std::int64_t> action(compiler.begin(), compiler.end());
  out.push_back(env->step(action).obs.copy());
  return out;
}

std::string observations_json(const std::string& workload, const std::vector<Observation>& graphs,
                              int memories) {
  nlohmann::ordered_json doc;
  doc["workload"] = workload;
  doc["memories"] = memories;
  doc["graphs"] = nlohmann::ordered_json::array();
  for (const Observation& obs : graphs) {
    const ObservationView view = obs.view();
    nlohmann::ordered_json g;
    g["num_nodes"] = view.num_nodes();
    g["num_features"] = view.num_features();
    g["nodes"] = view.node_features();
    g["edges"] = view.graph->edges;
    doc["graphs"].push_back(std::move(g));
  }
  return doc.dump() + "\n";
}

std::string fixture_path(const std::string& file) {
  return std::string(MEMPLACE_SOURCE_DIR) + "/tests/data/gnn/" + file;
}

}  // namespace memplace::testing
