#include "agents/nn/start_from.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/errors.hpp"

namespace memplace::nn {

std::size_t start_from(const Gnn<float>& trained, Gnn<float>& network) {
  const GnnConfig& from = trained.config();
  const GnnConfig& to = network.config();
  const bool trunks_match = from.input_features == to.input_features && from.hidden == to.hidden &&
                            from.conv_layers == to.conv_layers;
  const bool heads_match = !(from.policy_head && to.policy_head) || from.memories == to.memories;
  if (!trunks_match || !heads_match)
    throw InputError("the trained network (" + from.to_string() + ") does not fit the agent's (" +
                     to.to_string() +
                     "): the input features, hidden width, convolution layers and memories must "
                     "agree (hyperparameters hidden and conv_layers; the same env version and a "
                     "chip with as many memories)");
  const ParameterLayout& source = trained.parameters().layout();
  std::size_t copied = 0;
  for (std::size_t t = 0; t < network.parameters().layout().tensors().size(); ++t) {
    const TensorSpec& spec = network.parameters().layout().tensor(t);
    const auto& tensors = source.tensors();
    const auto match = std::find_if(tensors.begin(), tensors.end(), [&](const TensorSpec& s) {
      return s.name == spec.name && s.rows == spec.rows && s.cols == spec.cols;
    });
    if (match == tensors.end()) continue;
    const std::span<const float> values =
        trained.parameters().values().subspan(match->offset, match->size());
    std::copy(values.begin(), values.end(), network.parameters().tensor(t).begin());
    ++copied;
  }
  return copied;
}

void temper_policy(Gnn<float>& network, double temperature) {
  if (!(std::isfinite(temperature) && temperature > 0))
    throw InputError("policy temperature: must be a positive number, not " +
                     std::to_string(temperature));
  if (!network.config().policy_head)
    throw InputError("policy temperature: the network has no policy head");
  const auto scale = static_cast<float>(1.0 / temperature);
  for (const char* name : {"policy.out.weight", "policy.out.bias"})
    for (float& v : network.parameters().tensor(name))
      v *= scale;
}

}  // namespace memplace::nn
