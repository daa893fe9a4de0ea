// Adam (Kingma & Ba) with global gradient-norm clipping and decoupled weight decay (AdamW), over
// one flat ParameterSet.
//
// The update follows PyTorch's torch.optim.AdamW (bias-corrected, epsilon added after the square
// root), so runs can be compared with the PyTorch peer:
//   p <- p * (1 - lr * weight_decay)
//   m <- beta1 m + (1 - beta1) g,   v <- beta2 v + (1 - beta2) g^2
//   p <- p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + epsilon)
// Arithmetic is in double whatever T is; the moments are stored as T.
#pragma once

#include <cstdint>
#include <memory>

#include "agents/nn/parameters.hpp"

namespace memplace::nn {

struct AdamOptions {
  double learning_rate = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  double max_grad_norm = 0;  // clip the global L2 norm to this; 0 = no clipping
  double weight_decay = 0;   // decoupled (AdamW); applies to every tensor
};

// Throws std::invalid_argument naming the first bad option.
void validate(const AdamOptions& options);

template <class T>
class Adam {
 public:
  // Moments start at zero. Throws std::invalid_argument on bad options or a null layout.
  Adam(std::shared_ptr<const ParameterLayout> layout, AdamOptions options = {});

  // One update of `params` from `grads` (both with the optimiser's layout). Clips `grads` in
  // place when their norm exceeds max_grad_norm, and returns the norm before clipping (summed in
  // double, in buffer order, so it is deterministic). A NaN or infinite gradient throws
  // std::invalid_argument naming the tensor, leaving params, grads and state unchanged.
  double step(ParameterSet<T>& params, ParameterSet<T>& grads);

  const AdamOptions& options() const { return options_; }
  // For schedules; validated as in the constructor.
  void set_learning_rate(double learning_rate);

  // The state, for checkpoints.
  std::uint64_t step_count() const { return steps_; }
  const ParameterSet<T>& first_moment() const { return m_; }
  const ParameterSet<T>& second_moment() const { return v_; }
  // Restores a saved state. The moments must have the optimiser's layout (by value: a layout
  // read back from a file will do), be finite, and `second_moment` non-negative.
  void set_state(std::uint64_t step_count, const ParameterSet<T>& first_moment,
                 const ParameterSet<T>& second_moment);

 private:
  std::shared_ptr<const ParameterLayout> layout_;
  AdamOptions options_;
  std::uint64_t steps_ = 0;
  ParameterSet<T> m_;
  ParameterSet<T> v_;
};

}  // namespace memplace::nn
