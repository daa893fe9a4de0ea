#include "agents/planning/mcts_network.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "agents/nn/graph_batch.hpp"
#include "base/errors.hpp"
#include "base/portable_math.hpp"

namespace memplace::agents::planning {
namespace {

nn::GnnConfig network_config(const ObservationView& observation, std::size_t memories,
                             const MctsNetworkOptions& options) {
  return nn::GnnConfig{.input_features = observation.num_features(),
                       .hidden = options.hidden,
                       .conv_layers = options.conv_layers,
                       .memories = memories,
                       .policy_head = true,
                       .value_head = false,
                       .q_head = false};
}

}  // namespace

MctsNetwork::MctsNetwork(const ObservationView& observation, std::size_t memories,
                         const MctsNetworkOptions& options, std::uint64_t seed)
    : options_(options),
      graph_(*observation.owner),
      dynamic_features_(observation.dynamic_features),
      memories_(memories),
      net_(network_config(observation, memories, options), seed),
      adam_(net_.parameters().shared_layout(),
            nn::AdamOptions{.learning_rate = options.learning_rate}),
      grads_(net_.zero_gradients()) {
  const std::size_t nodes = graph_->num_nodes;
  dynamic_.assign(options.replay * nodes * dynamic_features_, 0.0f);
  tensor_.assign(options.replay, 0);
  policy_.assign(options.replay * memories, 0.0f);
  mask_.assign(options.replay * memories, 0);
}

void MctsNetwork::read(const ObservationView& observation) {
  const nn::GraphBatch batch(observation);
  net_.forward(batch, ws_);
  logits_.assign(ws_.logits().begin(), ws_.logits().end());
}

PriorAndValue MctsNetwork::prior(std::size_t tensor) const {
  const auto row = logits_.begin() + static_cast<std::ptrdiff_t>(tensor * memories_);
  return {std::vector<double>(row, row + static_cast<std::ptrdiff_t>(memories_)), 0.0};
}

void MctsNetwork::remember(const ObservationView& observation, std::size_t tensor,
                           std::span<const double> improved_policy) {
  const std::size_t cells = graph_->num_nodes * dynamic_features_;
  if (observation.dynamic.size() != cells || improved_policy.size() != memories_)
    throw std::invalid_argument("MctsNetwork::remember: a decision of another shape");
  std::copy(observation.dynamic.begin(), observation.dynamic.end(),
            dynamic_.begin() + static_cast<std::ptrdiff_t>(next_ * cells));
  tensor_[next_] = static_cast<std::uint32_t>(tensor);
  for (std::size_t a = 0; a < memories_; ++a) {
    policy_[next_ * memories_ + a] = static_cast<float>(improved_policy[a]);
    mask_[next_ * memories_ + a] = observation.action_mask[a];
  }
  next_ = (next_ + 1) % options_.replay;
  size_ = std::min(size_ + 1, options_.replay);
}

double MctsNetwork::train(Rng& rng) {
  if (size_ == 0) return 0;
  const std::size_t nodes = graph_->num_nodes, cells = nodes * dynamic_features_;
  const std::size_t m = memories_;
  double loss_sum = 0;
  std::vector<std::size_t> picks(options_.batch);
  std::vector<ObservationView> views(options_.batch);
  std::vector<float> dlogits;
  for (std::size_t update = 0; update < options_.updates; ++update) {
    for (std::size_t b = 0; b < options_.batch; ++b) {
      picks[b] = static_cast<std::size_t>(rng.uniform(size_));
      ObservationView& view = views[b];
      view.graph = graph_.get();
      view.owner = &graph_;
      view.dynamic = std::span<const float>(dynamic_).subspan(picks[b] * cells, cells);
      view.dynamic_features = dynamic_features_;
    }
    const nn::GraphBatch batch(views);
    net_.forward(batch, ws_);
    const std::span<const float> logits = ws_.logits();
    dlogits.assign(logits.size(), 0.0f);
    // Cross-entropy from the improved policy to the softmax over the decision's allowed actions.
    double loss = 0;
    const double scale = 1.0 / static_cast<double>(options_.batch);
    for (std::size_t b = 0; b < options_.batch; ++b) {
      const std::size_t s = picks[b];
      const std::size_t row = (b * nodes * 2 + tensor_[s]) * m;  // node b*N + layer, then kind
      double top = -1e300;
      for (std::size_t a = 0; a < m; ++a)
        if (mask_[s * m + a] != 0) top = std::max(top, static_cast<double>(logits[row + a]));
      double sum = 0;
      for (std::size_t a = 0; a < m; ++a)
        if (mask_[s * m + a] != 0) sum += portable::exp(logits[row + a] - top);
      const double log_sum = top + portable::log(sum);
      for (std::size_t a = 0; a < m; ++a) {
        if (mask_[s * m + a] == 0) continue;
        const double log_p = logits[row + a] - log_sum;
        const double target = policy_[s * m + a];
        loss -= target * log_p;
        dlogits[row + a] = static_cast<float>(scale * (portable::exp(log_p) - target));
      }
    }
    grads_.set_zero();
    net_.backward(batch, ws_, {.logits = dlogits}, grads_);
    adam_.step(net_.parameters(), grads_);
    loss_sum += loss * scale;
  }
  return loss_sum / static_cast<double>(options_.updates);
}

void MctsNetwork::save(StateWriter& out) const {
  out.put_array<float>("mcts.network.parameters", net_.parameters().values());
  out.put("mcts.network.adam.steps", adam_.step_count());
  out.put_array<float>("mcts.network.adam.m", adam_.first_moment().values());
  out.put_array<float>("mcts.network.adam.v", adam_.second_moment().values());
  out.put("mcts.replay.size", static_cast<std::uint64_t>(size_));
  out.put("mcts.replay.next", static_cast<std::uint64_t>(next_));
  out.put_array<float>("mcts.replay.dynamic", dynamic_);
  out.put_array<std::uint32_t>("mcts.replay.tensor", tensor_);
  out.put_array<float>("mcts.replay.policy", policy_);
  out.put_array<std::uint8_t>("mcts.replay.mask", mask_);
}

void MctsNetwork::load(StateReader& in) {
  in.get_array_into<float>("mcts.network.parameters", net_.parameters().values());
  const std::uint64_t steps = in.get_u64("mcts.network.adam.steps");
  nn::ParameterSet<float> m(net_.parameters().shared_layout());
  nn::ParameterSet<float> v(net_.parameters().shared_layout());
  in.get_array_into<float>("mcts.network.adam.m", m.values());
  in.get_array_into<float>("mcts.network.adam.v", v.values());
  adam_.set_state(steps, m, v);
  size_ = static_cast<std::size_t>(in.get_u64("mcts.replay.size"));
  next_ = static_cast<std::size_t>(in.get_u64("mcts.replay.next"));
  if (size_ > options_.replay || next_ >= options_.replay)
    throw InputError("mcts.replay: size or position beyond the buffer");
  in.get_array_into<float>("mcts.replay.dynamic", dynamic_);
  in.get_array_into<std::uint32_t>("mcts.replay.tensor", tensor_);
  in.get_array_into<float>("mcts.replay.policy", policy_);
  in.get_array_into<std::uint8_t>("mcts.replay.mask", mask_);
  for (const std::uint32_t t : tensor_)
    if (t >= 2 * graph_->num_nodes) throw InputError("mcts.replay.tensor: a tensor out of range");
}

}  // namespace memplace::agents::planning
