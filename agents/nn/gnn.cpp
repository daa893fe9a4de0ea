#include "agents/nn/gnn.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "agents/nn/eigen_views.hpp"
#include "agents/nn/layers.hpp"
#include "base/rng.hpp"

namespace memplace::nn {
namespace {

using detail::array;

// Where each tensor sits in the layout.
struct Indices {
  std::size_t encoder_w = 0, encoder_b = 0;
  std::vector<std::size_t> conv_w, conv_b, norm_gain, norm_bias;
  std::size_t policy_w1 = 0, policy_b1 = 0, policy_w2 = 0, policy_b2 = 0;
  std::size_t value_w1 = 0, value_b1 = 0, value_w2 = 0, value_b2 = 0;
  std::size_t q_node_w = 0, q_node_b = 0, q_weight = 0, q_activation = 0, q_input = 0;
  std::size_t q_w1 = 0, q_b1 = 0, q_w2 = 0, q_b2 = 0;

  Indices(const ParameterLayout& layout, const GnnConfig& config) {
    auto at = [&](const std::string& name) { return layout.index_of(name); };
    encoder_w = at("encoder.weight"), encoder_b = at("encoder.bias");
    for (std::size_t l = 0; l < config.conv_layers; ++l) {
      const std::string p = "conv" + std::to_string(l);
      conv_w.push_back(at(p + ".weight"));
      conv_b.push_back(at(p + ".bias"));
      norm_gain.push_back(at(p + ".norm.gain"));
      norm_bias.push_back(at(p + ".norm.bias"));
    }
    if (config.policy_head) {
      policy_w1 = at("policy.hidden.weight"), policy_b1 = at("policy.hidden.bias");
      policy_w2 = at("policy.out.weight"), policy_b2 = at("policy.out.bias");
    }
    if (config.value_head) {
      value_w1 = at("value.hidden.weight"), value_b1 = at("value.hidden.bias");
      value_w2 = at("value.out.weight"), value_b2 = at("value.out.bias");
    }
    if (config.q_head) {
      q_node_w = at("q.node.weight"), q_node_b = at("q.node.bias");
      q_weight = at("q.weight_action"), q_activation = at("q.activation_action");
      q_input = at("q.input_action");
      q_w1 = at("q.hidden.weight"), q_b1 = at("q.hidden.bias");
      q_w2 = at("q.out.weight"), q_b2 = at("q.out.bias");
    }
  }
};

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// docs/gnn.md, Initialisation: tensor by tensor in layout order.
template <class T>
void initialise(ParameterSet<T>& p, const GnnConfig& config, std::uint64_t seed) {
  Rng rng(seed);
  double bound = 0;  // a bias takes the bound of the weight declared just before it
  for (std::size_t t = 0; t < p.layout().tensors().size(); ++t) {
    const TensorSpec& spec = p.layout().tensor(t);
    std::span<T> values = p.tensor(t);
    if (ends_with(spec.name, ".norm.gain") || ends_with(spec.name, ".norm.bias")) {
      std::fill(values.begin(), values.end(), ends_with(spec.name, ".gain") ? T(1) : T(0));
      continue;
    }
    if (ends_with(spec.name, "_action")) {
      bound = 1.0 / std::sqrt(3.0 * static_cast<double>(config.memories));
    } else if (ends_with(spec.name, ".weight")) {
      bound = 1.0 / std::sqrt(static_cast<double>(spec.rows));
    }
    for (T& v : values)
      v = static_cast<T>((2.0 * rng.uniform01() - 1.0) * bound);
  }
}

template <class T>
std::span<T> sized(Buffer<T>& buffer, std::size_t size) {
  ensure_size(buffer, size);
  return std::span<T>(buffer.data(), size);
}

template <class T>
std::span<T> zeroed(Buffer<T>& buffer, std::size_t size) {
  std::span<T> s = sized(buffer, size);
  std::fill(s.begin(), s.end(), T(0));
  return s;
}

template <class T>
std::span<const T> view(const Buffer<T>& buffer, std::size_t size) {
  return std::span<const T>(buffer.data(), size);
}

void check_batch(const GraphBatch& batch, const GnnConfig& config) {
  if (batch.num_graphs() == 0) throw std::invalid_argument("Gnn: an empty graph batch");
  if (batch.num_features() != config.input_features)
    throw std::invalid_argument("Gnn: the graphs have " + std::to_string(batch.num_features()) +
                                " node features, the model expects " +
                                std::to_string(config.input_features));
}

void check_samples(const GraphBatch& batch, QSamples samples, std::size_t memories) {
  std::size_t expected = 0;
  for (std::size_t b = 0; b < samples.size(); ++b) {
    if (samples.graph[b] >= batch.num_graphs())
      throw std::invalid_argument("Q samples: sample " + std::to_string(b) + " names graph " +
                                  std::to_string(samples.graph[b]) + " of a batch of " +
                                  std::to_string(batch.num_graphs()));
    expected += 2 * batch.graph_size(samples.graph[b]);
  }
  if (samples.actions.size() != expected)
    throw std::invalid_argument("Q samples: " + std::to_string(samples.actions.size()) +
                                " action entries, expected " + std::to_string(expected) +
                                " (two per node of each sample's graph)");
  for (std::size_t i = 0; i < samples.actions.size(); ++i) {
    if (samples.actions[i] >= memories)
      throw std::invalid_argument("Q samples: action entry " + std::to_string(i) + " is " +
                                  std::to_string(samples.actions[i]) + ", outside 0.." +
                                  std::to_string(memories - 1));
  }
}

// ---- Trunk ----------------------------------------------------------------------------------

template <class T>
void trunk_forward(const ParameterSet<T>& p, const Indices& ix, const GnnConfig& cfg,
                   const GraphBatch& batch, GnnWorkspace<T>& ws) {
  const std::size_t N = batch.num_nodes(), F = cfg.input_features, H = cfg.hidden;
  const std::size_t L = cfg.conv_layers;
  std::span<const T> x;
  if constexpr (std::is_same_v<T, float>) {
    x = batch.features();
  } else {
    std::span<T> converted = sized(ws.input, N * F);
    std::copy(batch.features().begin(), batch.features().end(), converted.begin());
    x = converted;
  }
  ws.h.resize(L + 1), ws.gathered.resize(L), ws.pre_norm.resize(L), ws.activated.resize(L);
  ws.norm_mean.resize(L), ws.norm_rstd.resize(L);

  std::span<T> h0 = sized(ws.h[0], N * H);
  linear_forward<T>(h0, x, p.tensor(ix.encoder_w), p.tensor(ix.encoder_b), N, F, H);
  relu_forward<T>(h0, h0);
  for (std::size_t l = 0; l < L; ++l) {
    std::span<const T> h = view(ws.h[l], N * H);
    std::span<T> c = sized(ws.gathered[l], N * 3 * H);
    bidirectional_gather_forward<T>(c, h, batch.producers(), batch.consumers(), N, H);
    std::span<T> z = sized(ws.pre_norm[l], N * H);
    linear_forward<T>(z, c, p.tensor(ix.conv_w[l]), p.tensor(ix.conv_b[l]), N, 3 * H, H);
    std::span<T> a = sized(ws.activated[l], N * H);
    layernorm_forward<T>(a, sized(ws.norm_mean[l], N), sized(ws.norm_rstd[l], N), z,
                         p.tensor(ix.norm_gain[l]), p.tensor(ix.norm_bias[l]), N, H);
    relu_forward<T>(a, a);
    add_forward<T>(sized(ws.h[l + 1], N * H), h, a);
  }
}

// Consumes ws.d_embeddings (dL/dh_L), accumulating parameter gradients into g.
template <class T>
void trunk_backward(const ParameterSet<T>& p, const Indices& ix, const GnnConfig& cfg,
                    const GraphBatch& batch, GnnWorkspace<T>& ws, ParameterSet<T>& g) {
  const std::size_t N = batch.num_nodes(), F = cfg.input_features, H = cfg.hidden;
  // dh holds dL/dh_{l+1}; h_{l+1} = h_l + a_l, so it is also dL/da_l, and dL/dh_l starts from it.
  std::span<T> dh(ws.d_embeddings.data(), N * H);
  for (std::size_t l = cfg.conv_layers; l-- > 0;) {
    std::span<T> du = zeroed(ws.d_rows, N * H);
    relu_backward<T>(du, dh, view(ws.activated[l], N * H));
    std::span<T> dz = zeroed(ws.d_rows2, N * H);
    layernorm_backward<T>(dz, g.tensor(ix.norm_gain[l]), g.tensor(ix.norm_bias[l]), du,
                          view(ws.pre_norm[l], N * H), view(ws.norm_mean[l], N),
                          view(ws.norm_rstd[l], N), p.tensor(ix.norm_gain[l]), N, H);
    std::span<T> dc = zeroed(ws.d_gathered, N * 3 * H);
    linear_backward<T>(dc, g.tensor(ix.conv_w[l]), g.tensor(ix.conv_b[l]), dz,
                       view(ws.gathered[l], N * 3 * H), p.tensor(ix.conv_w[l]), N, 3 * H, H);
    bidirectional_gather_backward<T>(dh, dc, batch.producers(), batch.consumers(), N, H);
  }
  std::span<T> dpre = zeroed(ws.d_rows, N * H);
  relu_backward<T>(dpre, dh, view(ws.h[0], N * H));
  std::span<const T> x;
  if constexpr (std::is_same_v<T, float>) {
    x = batch.features();
  } else {
    x = view(ws.input, N * F);
  }
  linear_backward<T>({}, g.tensor(ix.encoder_w), g.tensor(ix.encoder_b), dpre, x,
                     p.tensor(ix.encoder_w), N, F, H);
}

// ---- A two-layer MLP head: out = tanh(in W1 + b1) W2 + b2 ----------------------------------

struct MlpTensors {
  std::size_t w1, b1, w2, b2;
};

template <class T>
void mlp_forward(const ParameterSet<T>& p, MlpTensors t, std::span<const T> in, Buffer<T>& hidden,
                 Buffer<T>& out, std::size_t rows, std::size_t in_cols, std::size_t hidden_cols,
                 std::size_t out_cols) {
  std::span<T> hid = sized(hidden, rows * hidden_cols);
  linear_forward<T>(hid, in, p.tensor(t.w1), p.tensor(t.b1), rows, in_cols, hidden_cols);
  tanh_forward<T>(hid, hid);
  linear_forward<T>(sized(out, rows * out_cols), hid, p.tensor(t.w2), p.tensor(t.b2), rows,
                    hidden_cols, out_cols);
}

// Accumulates dL/din into din.
template <class T>
void mlp_backward(const ParameterSet<T>& p, MlpTensors t, ParameterSet<T>& g, std::span<const T> in,
                  const Buffer<T>& hidden, std::span<const T> dout, std::span<T> din,
                  GnnWorkspace<T>& ws, std::size_t rows, std::size_t in_cols,
                  std::size_t hidden_cols, std::size_t out_cols) {
  std::span<const T> hid = view(hidden, rows * hidden_cols);
  std::span<T> dhid = zeroed(ws.d_small, rows * hidden_cols);
  linear_backward<T>(dhid, g.tensor(t.w2), g.tensor(t.b2), dout, hid, p.tensor(t.w2), rows,
                     hidden_cols, out_cols);
  std::span<T> dpre = zeroed(ws.d_small2, rows * hidden_cols);
  tanh_backward<T>(dpre, dhid, hid);
  linear_backward<T>(din, g.tensor(t.w1), g.tensor(t.b1), dpre, in, p.tensor(t.w1), rows, in_cols,
                     hidden_cols);
}

// ---- Q head ---------------------------------------------------------------------------------

// The per-sample rows: sample b covers rows q_row_offsets[b] .. [b+1] of q_relu, one per node of
// its graph, and actions q_action_offsets[b] .. (two per node).
template <class T>
void q_sample_offsets(const GraphBatch& batch, QSamples samples, GnnWorkspace<T>& ws) {
  ws.q_row_offsets.assign(1, 0);
  ws.q_action_offsets.assign(1, 0);
  for (std::size_t b = 0; b < samples.size(); ++b) {
    const auto n = static_cast<std::uint32_t>(batch.graph_size(samples.graph[b]));
    ws.q_row_offsets.push_back(ws.q_row_offsets.back() + n);
    ws.q_action_offsets.push_back(ws.q_action_offsets.back() + 2 * n);
  }
  ws.sample_rows = ws.q_row_offsets.back();
}

template <class T>
void q_forward(const ParameterSet<T>& p, const Indices& ix, const GnnConfig& cfg,
               const GraphBatch& batch, QSamples samples, GnnWorkspace<T>& ws) {
  const std::size_t N = batch.num_nodes(), H = cfg.hidden, B = samples.size();
  q_sample_offsets(batch, samples, ws);
  // u = h_L W + b once for the batch: the part of every sample that does not depend on actions.
  std::span<T> u = sized(ws.q_node, N * H);
  linear_forward<T>(u, ws.embeddings(), p.tensor(ix.q_node_w), p.tensor(ix.q_node_b), N, H, H);
  std::span<const T> ew = p.tensor(ix.q_weight), ea = p.tensor(ix.q_activation);
  std::span<const T> ep = p.tensor(ix.q_input);
  std::span<T> r = sized(ws.q_relu, ws.sample_rows * H);
  const Neighbours producers = batch.producers();
  for (std::size_t b = 0; b < B; ++b) {
    const std::size_t first = batch.offsets()[samples.graph[b]];
    const std::uint8_t* a = samples.actions.data() + ws.q_action_offsets[b];
    for (std::size_t i = 0; i < batch.graph_size(samples.graph[b]); ++i) {
      auto z = array(r.data() + (ws.q_row_offsets[b] + i) * H, H);
      z = array(u.data() + (first + i) * H, H) + array(ew.data() + a[2 * i] * H, H) +
          array(ea.data() + a[2 * i + 1] * H, H);
      const std::size_t n = producers.count(first + i);
      if (n > 0) {
        const T scale = T(1) / static_cast<T>(n);
        for (std::uint32_t e = producers.offsets[first + i]; e < producers.offsets[first + i + 1];
             ++e)
          z += array(ep.data() + a[2 * (producers.index[e] - first) + 1] * H, H) * scale;
      }
      z = z.cwiseMax(T(0));
    }
  }
  std::span<T> pooled = sized(ws.q_pooled, B * 2 * H);
  ensure_size(ws.q_argmax, B * H);
  mean_max_pool_forward<T>(pooled, std::span(ws.q_argmax.data(), B * H), r, ws.q_row_offsets, H);
  mlp_forward<T>(p, {ix.q_w1, ix.q_b1, ix.q_w2, ix.q_b2}, pooled, ws.q_hidden, ws.q_out, B, 2 * H,
                 H, 1);
}

template <class T>
void q_backward(const ParameterSet<T>& p, const Indices& ix, const GnnConfig& cfg,
                const GraphBatch& batch, QSamples samples, std::span<const T> dq,
                GnnWorkspace<T>& ws, ParameterSet<T>& g) {
  const std::size_t N = batch.num_nodes(), H = cfg.hidden, B = samples.size();
  std::span<T> dpooled = zeroed(ws.d_pooled, B * 2 * H);
  mlp_backward<T>(p, {ix.q_w1, ix.q_b1, ix.q_w2, ix.q_b2}, g, view(ws.q_pooled, B * 2 * H),
                  ws.q_hidden, dq, dpooled, ws, B, 2 * H, H, 1);
  std::span<T> dr = zeroed(ws.d_gathered, ws.sample_rows * H);
  mean_max_pool_backward<T>(dr, dpooled, view(ws.q_argmax, B * H), ws.q_row_offsets, H);
  std::span<const T> r = view(ws.q_relu, ws.sample_rows * H);
  std::span<T> du = zeroed(ws.d_rows, N * H);
  std::span<T> dew = g.tensor(ix.q_weight), dea = g.tensor(ix.q_activation);
  std::span<T> dep = g.tensor(ix.q_input);
  const Neighbours producers = batch.producers();
  for (std::size_t b = 0; b < B; ++b) {
    const std::size_t first = batch.offsets()[samples.graph[b]];
    const std::uint8_t* a = samples.actions.data() + ws.q_action_offsets[b];
    for (std::size_t i = 0; i < batch.graph_size(samples.graph[b]); ++i) {
      auto dz = array(dr.data() + (ws.q_row_offsets[b] + i) * H, H);
      dz = (array(r.data() + (ws.q_row_offsets[b] + i) * H, H) > T(0)).select(dz, T(0));
      array(du.data() + (first + i) * H, H) += dz;
      array(dew.data() + a[2 * i] * H, H) += dz;
      array(dea.data() + a[2 * i + 1] * H, H) += dz;
      const std::size_t n = producers.count(first + i);
      if (n > 0) {
        const T scale = T(1) / static_cast<T>(n);
        for (std::uint32_t e = producers.offsets[first + i]; e < producers.offsets[first + i + 1];
             ++e)
          array(dep.data() + a[2 * (producers.index[e] - first) + 1] * H, H) += dz * scale;
      }
    }
  }
  linear_backward<T>(std::span<T>(ws.d_embeddings.data(), N * H), g.tensor(ix.q_node_w),
                     g.tensor(ix.q_node_b), du, ws.embeddings(), p.tensor(ix.q_node_w), N, H, H);
}

}  // namespace

template <class T>
std::span<const T> GnnWorkspace<T>::embeddings() const {
  return view(h.back(), rows * hidden);
}

template <class T>
Gnn<T>::Gnn(GnnConfig config, std::uint64_t seed)
    : config_(config), parameters_(gnn_layout(config)) {
  initialise(parameters_, config_, seed);
}

template <class T>
Gnn<T>::Gnn(GnnConfig config, ParameterSet<T> parameters)
    : config_(config), parameters_(std::move(parameters)) {
  if (!(parameters_.layout() == *gnn_layout(config_)))
    throw std::invalid_argument("Gnn: the parameters do not have the layout of the config (" +
                                config_.to_string() + ")");
}

template <class T>
void Gnn<T>::forward(const GraphBatch& batch, GnnWorkspace<T>& ws, QSamples samples) const {
  check_batch(batch, config_);
  if (config_.q_head) check_samples(batch, samples, config_.memories);
  const Indices ix(parameters_.layout(), config_);
  const ParameterSet<T>& p = parameters_;
  const std::size_t N = batch.num_nodes(), G = batch.num_graphs(), H = config_.hidden;
  const std::size_t M = config_.memories;
  ws.rows = N, ws.graphs = G, ws.hidden = H, ws.memories = M;
  ws.samples = config_.q_head ? samples.size() : 0;

  trunk_forward(p, ix, config_, batch, ws);
  if (config_.policy_head) {
    mlp_forward<T>(p, {ix.policy_w1, ix.policy_b1, ix.policy_w2, ix.policy_b2}, ws.embeddings(),
                   ws.policy_hidden, ws.policy_logits, N, H, H, 2 * M);
  }
  if (config_.value_head) {
    std::span<T> pooled = sized(ws.value_pooled, G * 2 * H);
    ensure_size(ws.value_argmax, G * H);
    mean_max_pool_forward<T>(pooled, std::span(ws.value_argmax.data(), G * H), ws.embeddings(),
                             batch.offsets(), H);
    mlp_forward<T>(p, {ix.value_w1, ix.value_b1, ix.value_w2, ix.value_b2}, pooled, ws.value_hidden,
                   ws.value_out, G, 2 * H, H, 1);
  }
  if (config_.q_head && samples.size() > 0) q_forward(p, ix, config_, batch, samples, ws);
}

template <class T>
void Gnn<T>::backward(const GraphBatch& batch, GnnWorkspace<T>& ws, const OutputGradients<T>& d,
                      ParameterSet<T>& g, QSamples samples) const {
  if (!(g.layout() == parameters_.layout()))
    throw std::invalid_argument("Gnn::backward: the gradients do not have the parameters' layout");
  if (ws.rows != batch.num_nodes() || ws.graphs != batch.num_graphs())
    throw std::invalid_argument("Gnn::backward: the workspace holds another batch's forward pass");
  auto require_size = [](std::span<const T> s, std::size_t n, const char* what) {
    if (!s.empty() && s.size() != n)
      throw std::invalid_argument(std::string("Gnn::backward: d") + what + " has " +
                                  std::to_string(s.size()) + " values, expected " +
                                  std::to_string(n));
  };
  const Indices ix(parameters_.layout(), config_);
  const ParameterSet<T>& p = parameters_;
  const std::size_t N = batch.num_nodes(), G = batch.num_graphs(), H = config_.hidden;
  const std::size_t M = config_.memories;
  require_size(d.logits, N * 2 * M, "logits");
  require_size(d.values, G, "values");
  require_size(d.q, ws.samples, "q");
  if ((!d.logits.empty() && !config_.policy_head) || (!d.values.empty() && !config_.value_head) ||
      (!d.q.empty() && (!config_.q_head || samples.size() != ws.samples)))
    throw std::invalid_argument(
        "Gnn::backward: a gradient for an output the forward pass did "
        "not produce");

  std::span<T> dh = zeroed(ws.d_embeddings, N * H);
  if (!d.logits.empty()) {
    mlp_backward<T>(p, {ix.policy_w1, ix.policy_b1, ix.policy_w2, ix.policy_b2}, g, ws.embeddings(),
                    ws.policy_hidden, d.logits, dh, ws, N, H, H, 2 * M);
  }
  if (!d.values.empty()) {
    std::span<T> dpooled = zeroed(ws.d_pooled, G * 2 * H);
    mlp_backward<T>(p, {ix.value_w1, ix.value_b1, ix.value_w2, ix.value_b2}, g,
                    view(ws.value_pooled, G * 2 * H), ws.value_hidden, d.values, dpooled, ws, G,
                    2 * H, H, 1);
    mean_max_pool_backward<T>(dh, dpooled, view(ws.value_argmax, G * H), batch.offsets(), H);
  }
  if (!d.q.empty()) q_backward(p, ix, config_, batch, samples, d.q, ws, g);
  trunk_backward(p, ix, config_, batch, ws, g);
}

template class Gnn<float>;
template class Gnn<double>;
template struct GnnWorkspace<float>;
template struct GnnWorkspace<double>;

}  // namespace memplace::nn
