// The GNN of memplace's learning agents (docs/gnn.md is its contract): a bidirectional graph
// convolution trunk with residuals and layer norm, and up to three heads chosen by the config —
// per-node policy logits (two categorical heads of M memories), a scalar value per graph, and a
// Q value per (graph, action) sample.
//
// One class serves as policy and as critic: a policy is a Gnn with the policy head (and the value
// head, for an actor-critic that shares its trunk), a critic one with the value or the Q head. So
// every model has the same parameter type, which the EA crosses over and mutates by tensor name.
//
// A Gnn holds only its config and parameters; the activations of a forward pass live in a
// GnnWorkspace the caller owns (reused across calls, so steady-state calls do not allocate), so
// several threads can run one model at once, each with its own workspace.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/nn/buffer.hpp"
#include "agents/nn/graph_batch.hpp"
#include "agents/nn/parameters.hpp"

namespace memplace::nn {

struct GnnConfig {
  std::size_t input_features = 23;  // the single-step env's node features
  std::size_t hidden = 128;
  std::size_t conv_layers = 3;
  std::size_t memories = 3;
  bool policy_head = true;
  bool value_head = false;
  bool q_head = false;

  // Throws std::invalid_argument naming the field.
  void validate() const;
  // "input_features=23 hidden=128 conv_layers=3 memories=3 heads=policy,value" and back (a saved
  // model stores it, agents/nn/gnn_file.hpp; parse() reports unknown or missing keys).
  std::string to_string() const;
  static GnnConfig parse(std::string_view text);
  friend bool operator==(const GnnConfig&, const GnnConfig&) = default;
};

// The parameter layout of a config (docs/gnn.md lists the tensors).
std::shared_ptr<const ParameterLayout> gnn_layout(const GnnConfig& config);

// Action samples for the Q head: sample b is graph graph[b] of the batch with the action
// actions[offset_b .. offset_b + 2·N_g - 1] (the samples' actions concatenated in order).
struct QSamples {
  std::span<const std::uint32_t> graph;
  std::span<const std::uint8_t> actions;
  std::size_t size() const { return graph.size(); }
};

template <class T>
struct GnnWorkspace;

// Gradients of a loss with respect to the outputs of a forward pass; an empty span means the loss
// does not depend on that output.
template <class T>
struct OutputGradients {
  std::span<const T> logits = {};  // num_nodes x 2M
  std::span<const T> values = {};  // num_graphs
  std::span<const T> q = {};       // number of Q samples
};

template <class T>
class Gnn {
 public:
  // Parameters initialised from `seed` (docs/gnn.md, Initialisation).
  Gnn(GnnConfig config, std::uint64_t seed);
  // Given parameters (a loaded file, a copy of another model's); throws if the layout differs.
  Gnn(GnnConfig config, ParameterSet<T> parameters);

  const GnnConfig& config() const { return config_; }
  ParameterSet<T>& parameters() { return parameters_; }
  const ParameterSet<T>& parameters() const { return parameters_; }
  ParameterSet<T> zero_gradients() const { return ParameterSet<T>(parameters_.shared_layout()); }

  // Runs the trunk and every head of the config (the Q head only when samples are given) on the
  // batch; the outputs are ws.logits(), ws.values() and ws.q(). Throws std::invalid_argument on
  // a batch or samples that do not fit the config.
  void forward(const GraphBatch& batch, GnnWorkspace<T>& ws, QSamples samples = {}) const;
  // Backpropagates `d` through the forward pass last run in `ws` (same batch and samples),
  // accumulating into `gradients` (same layout as the parameters).
  void backward(const GraphBatch& batch, GnnWorkspace<T>& ws, const OutputGradients<T>& d,
                ParameterSet<T>& gradients, QSamples samples = {}) const;

 private:
  GnnConfig config_;
  ParameterSet<T> parameters_;
};

extern template class Gnn<float>;
extern template class Gnn<double>;

// Activations saved by a forward pass for its backward, and scratch for the backward itself.
template <class T>
struct GnnWorkspace {
  std::span<const T> logits() const { return {policy_logits.data(), rows * 2 * memories}; }
  std::span<const T> values() const { return {value_out.data(), graphs}; }
  std::span<const T> q() const { return {q_out.data(), samples}; }
  // The trunk's node embeddings h_L (num_nodes x hidden).
  std::span<const T> embeddings() const;

  // Shapes of the last forward.
  std::size_t rows = 0, graphs = 0, samples = 0, sample_rows = 0, hidden = 0, memories = 0;

  // Trunk.
  Buffer<T> input;                   // the features in T (double models only)
  std::vector<Buffer<T>> h;          // h_0 .. h_L, rows x H
  std::vector<Buffer<T>> gathered;   // per conv layer: [h, mean_in, mean_out], rows x 3H
  std::vector<Buffer<T>> pre_norm;   // per conv layer: z, rows x H
  std::vector<Buffer<T>> activated;  // per conv layer: relu(layernorm(z)), rows x H
  std::vector<Buffer<T>> norm_mean, norm_rstd;
  // Policy head.
  Buffer<T> policy_hidden, policy_logits;
  // Value head.
  Buffer<T> value_pooled, value_hidden, value_out;
  Buffer<std::uint32_t> value_argmax;
  // Q head.
  Buffer<T> q_node, q_relu, q_pooled, q_hidden, q_out;
  Buffer<std::uint32_t> q_argmax;
  std::vector<std::uint32_t> q_row_offsets, q_action_offsets;
  // Backward scratch.
  Buffer<T> d_embeddings, d_rows, d_rows2, d_gathered, d_small, d_small2, d_pooled;
};

}  // namespace memplace::nn
