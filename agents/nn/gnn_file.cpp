#include "agents/nn/gnn_file.hpp"

#include <stdexcept>

#include "base/errors.hpp"
#include "base/state_archive.hpp"

namespace memplace::agents {
namespace {

constexpr std::string_view kPrefix = "memplace-gnn ";

nn::GnnConfig parse_config(std::string_view text, std::string_view source) {
  if (!text.starts_with(kPrefix))
    throw InputError(std::string(source) + ": holds '" + std::string(text) +
                     "', not a memplace GNN");
  try {
    return nn::GnnConfig::parse(text.substr(kPrefix.size()));
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string(source) + ": " + e.what());
  }
}

}  // namespace

std::string gnn_file_config(const nn::GnnConfig& config) {
  return std::string(kPrefix) + config.to_string();
}

void save_gnn(const std::filesystem::path& path, const nn::Gnn<float>& model) {
  StateWriter out;
  out.put("gnn.config", gnn_file_config(model.config()));
  out.put_array<float>("gnn.parameters", model.parameters().values());
  out.save(path);
}

nn::Gnn<float> load_gnn(const std::filesystem::path& path) {
  StateReader in = StateReader::load(path);
  const nn::GnnConfig config = parse_config(in.get_text("gnn.config"), in.source());
  nn::ParameterSet<float> parameters(nn::gnn_layout(config));
  in.get_array_into<float>("gnn.parameters", parameters.values());
  in.expect_end();
  return nn::Gnn<float>(config, std::move(parameters));
}

nn::Gnn<float> load_gnn(const std::filesystem::path& path, const nn::GnnConfig& expected) {
  nn::Gnn<float> model = load_gnn(path);
  if (!(model.config() == expected))
    throw InputError(path.string() + ": holds a GNN with " + model.config().to_string() +
                     ", expected " + expected.to_string());
  return model;
}

}  // namespace memplace::agents
