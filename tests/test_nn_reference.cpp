// The GNN against its PyTorch reference, in the manner of llm.c's test_gpt2: the PyTorch peer
// (bench/peers/gnn_torch.py) computes outputs and gradients for fixed weights on real resnet50
// observations and writes them to tests/data/gnn/reference.json; the C++ network must match.
//
// With MEMPLACE_REGENERATE_GOLDEN=1 the first case rewrites the observation files the peer reads
// (tests/data/gnn/regenerate.sh runs the whole chain).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "env/atomic_file.hpp"
#include "tests/nn_fixture.hpp"

namespace memplace {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("gnn reference: the observation fixtures are those of the environments") {
  for (const std::string workload : {"resnet50", "bert-base"}) {
    const std::string json = testing::observations_json(
        workload, testing::fixture_observations(workload), /*memories=*/3);
    const std::string path = testing::fixture_path(workload + ".json");
    if (std::getenv("MEMPLACE_REGENERATE_GOLDEN") != nullptr) {
      write_file_atomically(path, json);
    } else {
      CHECK_MESSAGE(read_text(path) == json, path << " is stale: run tests/data/gnn/regenerate.sh");
    }
  }
}

}  // namespace
}  // namespace memplace
