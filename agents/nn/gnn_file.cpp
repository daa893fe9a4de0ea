#include "agents/nn/gnn_file.hpp"

#include <stdexcept>

#include "agents/nn/serialize.hpp"

namespace memplace::nn {
namespace {

constexpr std::string_view kPrefix = "memplace-gnn ";

}  // namespace

std::string gnn_file_config(const GnnConfig& config) {
  return std::string(kPrefix) + config.to_string();
}

GnnConfig parse_gnn_file_config(std::string_view text, std::string_view source) {
  if (!text.starts_with(kPrefix))
    throw std::runtime_error(std::string(source) + ": holds '" + std::string(text) +
                             "', not a memplace GNN");
  try {
    return GnnConfig::parse(text.substr(kPrefix.size()));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(source) + ": " + e.what());
  }
}

void save_gnn(const std::filesystem::path& path, const Gnn<float>& model) {
  save_parameters<float>(path, gnn_file_config(model.config()),
                         {{"parameters", &model.parameters()}});
}

Gnn<float> load_gnn(const std::filesystem::path& path) {
  const ParameterFile<float> file = load_parameters<float>(path);
  const GnnConfig config = parse_gnn_file_config(file.config, file.source);
  const ParameterSet<float>& stored = file.set("parameters");
  const auto layout = gnn_layout(config);
  require_layout(*layout, stored.layout(), file.source);
  ParameterSet<float> parameters(layout);
  std::copy(stored.values().begin(), stored.values().end(), parameters.values().begin());
  return Gnn<float>(config, std::move(parameters));
}

Gnn<float> load_gnn(const std::filesystem::path& path, const GnnConfig& expected) {
  Gnn<float> model = load_gnn(path);
  if (!(model.config() == expected))
    throw std::runtime_error(path.string() + ": holds a GNN with " + model.config().to_string() +
                             ", expected " + expected.to_string());
  return model;
}

}  // namespace memplace::nn
