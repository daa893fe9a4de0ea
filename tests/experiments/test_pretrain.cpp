// Training one policy across many graphs (experiments/generalization/pretrain.hpp): the stream
// draws a dev instance every dev_every-th segment and otherwise a procedural graph never drawn
// before; a run stopped after any segment, or extended by more segments, ends with the policy and
// validation curve (and best policy) of an uninterrupted run, byte for byte; the best policy is the
// validation's best; another config is refused.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/yaml_input.hpp"
#include "experiments/generalization/pretrain.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

using testing::TempDir;

experiments::PretrainConfig toy_config(const testing::ToyProblem& toy, std::uint64_t segments) {
  experiments::PretrainConfig c;
  c.model.hardware = "nnpi";  // the toy chip's memories are too small for procedural graphs
  c.dev = {toy.workload.string()};
  c.validation = {"procedural-cnn-s101"};
  c.kinds = {"cnn", "random"};
  c.dev_every = 3;
  c.segments = segments;
  c.segment_budget = 64;
  c.validate_every = 2;
  return c;
}

std::string file_text(const std::filesystem::path& path) {
  return YamlInput::read_file(path);
}

TEST_CASE("pretrain: the stream of workloads") {
  experiments::PretrainConfig c;
  c.dev = {"a", "b"};
  c.dev_every = 3;
  c.first_seed = 1000;
  CHECK(c.workload_at(0) == "a");
  CHECK(c.workload_at(1) == "procedural-cnn-s1001");
  CHECK(c.workload_at(2) == "procedural-random-s1002");
  CHECK(c.workload_at(3) == "b");
  CHECK(c.workload_at(4) == "procedural-cnn-s1004");
  CHECK(c.workload_at(6) == "a");
  std::set<std::string> drawn;
  for (std::uint64_t i = 0; i < 300; ++i)
    if (i % 3 != 0) CHECK(drawn.insert(c.workload_at(i)).second);  // never drawn twice
  c.dev_every = 0;
  CHECK(c.workload_at(0) == "procedural-transformer-s1000");
}

TEST_CASE("pretrain: stopped, resumed and extended runs end where an uninterrupted one does") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  const auto whole = experiments::run_pretrain(toy_config(toy, 6), dir.path / "whole");
  CHECK(whole.segments_done == 6);
  CHECK(whole.evaluations == 6 * 64);
  CHECK_FALSE(whole.interrupted);

  // Stopped after two segments (at the check before the third), then extended to six.
  bool enough = false;
  const auto stopped = experiments::run_pretrain(
      toy_config(toy, 4), dir.path / "parts",
      [&](const experiments::PretrainProgress& p) { enough = p.segment == 2; },
      [&] { return enough; });
  CHECK(stopped.interrupted);
  CHECK(stopped.segments_done == 2);
  CHECK(experiments::run_pretrain(toy_config(toy, 4), dir.path / "parts").segments_done == 4);
  CHECK(experiments::run_pretrain(toy_config(toy, 6), dir.path / "parts").segments_done == 6);
  for (const char* name :
       {"policy.gnn", "validation.csv", "progress.yaml", "best.gnn", "best.yaml"})
    CHECK(file_text(dir.path / "whole" / name) == file_text(dir.path / "parts" / name));
  // Three validations (after 2, 4 and 6 segments), one workload each.
  const std::string curve = file_text(dir.path / "whole" / "validation.csv");
  CHECK(std::count(curve.begin(), curve.end(), '\n') == 1 + 3);
  CHECK_FALSE(std::filesystem::exists(dir.path / "whole" / "segment"));
  // best.yaml names the first validation with the highest share of the bound's gain (one
  // workload: its share is the IQM).
  std::uint64_t best_segment = 0;
  double best_share = 0;
  std::istringstream rows(curve);
  std::string row;
  std::getline(rows, row);  // the header
  while (std::getline(rows, row)) {
    std::vector<std::string> cells;
    std::istringstream fields(row);
    for (std::string cell; std::getline(fields, cell, ',');)
      cells.push_back(cell);
    REQUIRE(cells.size() == 6);
    const double share = (std::stod(cells[3]) - 1) / (std::stod(cells[5]) - 1);
    if (best_segment == 0 || share > best_share + 1e-6) {
      best_segment = std::stoull(cells[0]);
      best_share = share;
    }
  }
  const YamlInput best(file_text(dir.path / "whole" / "best.yaml"), "best.yaml");
  CHECK(best.root()["segment"].as<std::uint64_t>() == best_segment);
  CHECK(best.root()["score"].as<double>() == doctest::Approx(best_share).epsilon(1e-5));

  experiments::PretrainConfig other = toy_config(toy, 6);
  other.segment_budget = 32;
  CHECK_THROWS_WITH_AS(experiments::run_pretrain(other, dir.path / "whole"),
                       doctest::Contains("holds a pretraining with another config"), InputError);
  other = toy_config(toy, 6);
  other.agent = "greedy-dp";
  CHECK_THROWS_WITH_AS(experiments::run_pretrain(other, dir.path / "x"),
                       doctest::Contains("has no GNN policy to start each segment from"),
                       InputError);
  other = toy_config(toy, 6);
  other.kinds = {"mlp"};
  CHECK_THROWS_WITH_AS(experiments::run_pretrain(other, dir.path / "x"),
                       doctest::Contains("'mlp' is not a procedural kind"), InputError);
}

}  // namespace
}  // namespace memplace
