#include "agents/nn/gnn_file.hpp"

#include <map>
#include <sstream>
#include <stdexcept>

#include "base/errors.hpp"
#include "base/state_archive.hpp"

namespace memplace::agents {
namespace {

constexpr std::string_view kPrefix = "memplace-gnn ";
constexpr std::string_view kSpecRecord = "gnn.policy_spec";

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

std::string PolicySpec::to_string() const {
  return "agent=" + agent + " env_version=" + std::string(version_name(env_version)) +
         " hardware=" + hardware + " features=" + features;
}

PolicySpec PolicySpec::parse(std::string_view text) {
  std::map<std::string, std::string, std::less<>> values;
  std::istringstream items{std::string(text)};
  for (std::string item; items >> item;) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("policy spec: '" + item + "' is not key=value");
    if (!values.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw std::invalid_argument("policy spec: key '" + item.substr(0, eq) + "' repeated");
  }
  PolicySpec spec;
  const auto take = [&](std::string_view key) {
    const auto it = values.find(key);
    if (it == values.end())
      throw std::invalid_argument("policy spec: key '" + std::string(key) + "' missing");
    std::string value = it->second;
    values.erase(it);
    return value;
  };
  spec.agent = take("agent");
  try {
    spec.env_version = parse_version(take("env_version"));
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("policy spec: env_version: ") + e.what());
  }
  spec.hardware = take("hardware");
  spec.features = take("features");
  if (!values.empty())
    throw std::invalid_argument("policy spec: unknown key '" + values.begin()->first + "'");
  return spec;
}

std::string gnn_file_config(const nn::GnnConfig& config) {
  return std::string(kPrefix) + config.to_string();
}

void save_gnn(const std::filesystem::path& path, const nn::Gnn<float>& model,
              const std::optional<PolicySpec>& spec) {
  StateWriter out;
  out.put("gnn.config", gnn_file_config(model.config()));
  out.put_array<float>("gnn.parameters", model.parameters().values());
  if (spec) out.put(kSpecRecord, spec->to_string());
  out.save(path);
}

PolicyFile load_policy(const std::filesystem::path& path) {
  return read_policy(StateReader::load(path));
}

PolicyFile read_policy(StateReader in) {
  const nn::GnnConfig config = parse_config(in.get_text("gnn.config"), in.source());
  nn::ParameterSet<float> parameters(nn::gnn_layout(config));
  in.get_array_into<float>("gnn.parameters", parameters.values());
  std::optional<PolicySpec> spec;
  if (in.next_is(kSpecRecord)) {
    try {
      spec = PolicySpec::parse(in.get_text(kSpecRecord));
    } catch (const std::invalid_argument& e) {
      throw InputError(in.source() + ": " + e.what());
    }
  }
  in.expect_end();
  return {nn::Gnn<float>(config, std::move(parameters)), std::move(spec)};
}

nn::Gnn<float> load_gnn(const std::filesystem::path& path) {
  return load_policy(path).gnn;
}

nn::Gnn<float> load_gnn(const std::filesystem::path& path, const nn::GnnConfig& expected) {
  nn::Gnn<float> model = load_gnn(path);
  if (!(model.config() == expected))
    throw InputError(path.string() + ": holds a GNN with " + model.config().to_string() +
                     ", expected " + expected.to_string());
  return model;
}

}  // namespace memplace::agents
