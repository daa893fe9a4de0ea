// Saving and loading whole GNNs (the byte-level format has its own tests in test_nn_serialize).
#include <doctest/doctest.h>

#include <unistd.h>
#include <filesystem>

#include <fstream>

#include "agents/nn/gnn_file.hpp"
#include "agents/nn/serialize.hpp"

namespace memplace {
namespace {

struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("memplace-gnn-file-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

nn::GnnConfig config() {
  nn::GnnConfig c{.input_features = 23, .hidden = 8, .conv_layers = 2, .memories = 3};
  c.value_head = true;
  return c;
}

TEST_CASE("nn gnn file: a saved model loads back identical") {
  TempDir dir;
  const nn::Gnn<float> model(config(), 42);
  save_gnn(dir.path / "model.bin", model);
  const nn::Gnn<float> loaded = nn::load_gnn(dir.path / "model.bin", config());
  CHECK(loaded.config() == config());
  CHECK(std::equal(model.parameters().values().begin(), model.parameters().values().end(),
                   loaded.parameters().values().begin(), loaded.parameters().values().end()));
}

TEST_CASE("nn gnn file: a missing, foreign, corrupt or mismatched file is named") {
  TempDir dir;
  CHECK_THROWS_WITH_AS(nn::load_gnn(dir.path / "absent.bin"), doctest::Contains("absent.bin"),
                       std::runtime_error);

  nn::GnnConfig other = config();
  other.hidden = 16;
  save_gnn(dir.path / "other.bin", nn::Gnn<float>(other, 1));
  CHECK_THROWS_WITH_AS(nn::load_gnn(dir.path / "other.bin", config()),
                       doctest::Contains("holds a GNN with input_features=23 hidden=16"),
                       std::runtime_error);

  const nn::ParameterSet<float> params(nn::gnn_layout(config()));
  nn::save_parameters<float>(dir.path / "foreign.bin", "some-other-model",
                             {{"parameters", &params}});
  CHECK_THROWS_WITH_AS(nn::load_gnn(dir.path / "foreign.bin"),
                       doctest::Contains("not a memplace GNN"), std::runtime_error);

  // The config says hidden=8 but the tensors are another model's: the layout check names one.
  nn::save_parameters<float>(dir.path / "mixed.bin", nn::gnn_file_config(other),
                             {{"parameters", &params}});
  CHECK_THROWS_WITH_AS(nn::load_gnn(dir.path / "mixed.bin"), doctest::Contains("encoder.weight"),
                       std::runtime_error);

  save_gnn(dir.path / "model.bin", nn::Gnn<float>(config(), 3));
  {
    std::fstream f(dir.path / "model.bin", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(200);
    f.put('\x7f');
  }
  CHECK_THROWS_WITH_AS(nn::load_gnn(dir.path / "model.bin"), doctest::Contains("model.bin"),
                       std::runtime_error);
}

}  // namespace
}  // namespace memplace
