// GnnConfig: validation, its text form (stored in parameter files) and the parameter layout.
#include <sstream>
#include <stdexcept>

#include "agents/nn/gnn.hpp"

namespace memplace::nn {

void GnnConfig::validate() const {
  auto require = [](bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument("GNN config: " + message);
  };
  require(input_features >= 1, "input_features must be at least 1");
  require(hidden >= 1 && hidden <= 4096,
          "hidden must be in 1..4096, not " + std::to_string(hidden));
  require(conv_layers <= 64, "conv_layers must be in 0..64, not " + std::to_string(conv_layers));
  require(memories >= 1 && memories <= 8,
          "memories must be in 1..8, not " + std::to_string(memories));
  require(policy_head || value_head || q_head, "a model needs at least one head");
}

std::string GnnConfig::to_string() const {
  std::string heads;
  for (const auto& [on, name] :
       {std::pair{policy_head, "policy"}, std::pair{value_head, "value"}, std::pair{q_head, "q"}}) {
    if (on) heads += (heads.empty() ? "" : ",") + std::string(name);
  }
  return "input_features=" + std::to_string(input_features) + " hidden=" + std::to_string(hidden) +
         " conv_layers=" + std::to_string(conv_layers) + " memories=" + std::to_string(memories) +
         " heads=" + heads;
}

GnnConfig GnnConfig::parse(std::string_view text) {
  GnnConfig config;
  config.policy_head = false;
  std::istringstream in{std::string(text)};
  std::string item;
  int seen = 0;
  while (in >> item) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("GNN config: '" + item + "' is not key=value");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "heads") {
      std::istringstream heads(value);
      std::string head;
      while (std::getline(heads, head, ',')) {
        if (head == "policy")
          config.policy_head = true;
        else if (head == "value")
          config.value_head = true;
        else if (head == "q")
          config.q_head = true;
        else
          throw std::invalid_argument("GNN config: unknown head '" + head + "'");
      }
      seen |= 16;
      continue;
    }
    std::size_t number = 0;
    try {
      std::size_t used = 0;
      number = std::stoul(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      throw std::invalid_argument("GNN config: " + key + "=" + value + " is not a whole number");
    }
    if (key == "input_features")
      config.input_features = number, seen |= 1;
    else if (key == "hidden")
      config.hidden = number, seen |= 2;
    else if (key == "conv_layers")
      config.conv_layers = number, seen |= 4;
    else if (key == "memories")
      config.memories = number, seen |= 8;
    else
      throw std::invalid_argument("GNN config: unknown key '" + key + "'");
  }
  if (seen != 31)
    throw std::invalid_argument("GNN config: '" + std::string(text) +
                                "' lacks one of input_features, hidden, conv_layers, memories, "
                                "heads");
  config.validate();
  return config;
}

std::shared_ptr<const ParameterLayout> gnn_layout(const GnnConfig& config) {
  config.validate();
  const std::size_t F = config.input_features, H = config.hidden, M = config.memories;
  auto layout = std::make_shared<ParameterLayout>();
  auto linear = [&](const std::string& name, std::size_t in, std::size_t out) {
    layout->add(name + ".weight", in, out);
    layout->add(name + ".bias", 1, out);
  };
  linear("encoder", F, H);
  for (std::size_t l = 0; l < config.conv_layers; ++l) {
    const std::string name = "conv" + std::to_string(l);
    linear(name, 3 * H, H);
    layout->add(name + ".norm.gain", 1, H);
    layout->add(name + ".norm.bias", 1, H);
  }
  if (config.policy_head) {
    linear("policy.hidden", H, H);
    linear("policy.out", H, 2 * M);
  }
  if (config.value_head) {
    linear("value.hidden", 2 * H, H);
    linear("value.out", H, 1);
  }
  if (config.q_head) {
    linear("q.node", H, H);
    layout->add("q.weight_action", M, H);
    layout->add("q.activation_action", M, H);
    layout->add("q.input_action", M, H);
    linear("q.hidden", 2 * H, H);
    linear("q.out", H, 1);
  }
  return layout;
}

}  // namespace memplace::nn
