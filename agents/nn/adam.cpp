#include "agents/nn/adam.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "base/portable_math.hpp"

namespace memplace::nn {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("Adam: " + what);
}

void require(bool ok, const char* option, double value, const char* rule) {
  if (!ok) fail(std::string(option) + " must be " + rule + ", got " + std::to_string(value));
}

// The name of the tensor that holds flat index `index`.
const std::string& tensor_at(const ParameterLayout& layout, std::size_t index) {
  for (const TensorSpec& t : layout.tensors()) {
    if (index < t.offset + t.size()) return t.name;
  }
  throw std::logic_error("Adam: index outside the layout");
}

// By pointer first: the usual case, and it spares comparing every tensor name on each step.
template <class T>
void check_layout(const std::shared_ptr<const ParameterLayout>& layout, const ParameterSet<T>& set,
                  const char* what) {
  const auto& found = set.shared_layout();
  if (found != layout && (found == nullptr || !(*found == *layout))) {
    fail(std::string(what) + " do not have the optimiser's parameter layout");
  }
}

}  // namespace

void validate(const AdamOptions& o) {
  require(std::isfinite(o.learning_rate) && o.learning_rate > 0, "learning_rate", o.learning_rate,
          "finite and > 0");
  require(o.beta1 >= 0 && o.beta1 < 1, "beta1", o.beta1, "in [0, 1)");
  require(o.beta2 >= 0 && o.beta2 < 1, "beta2", o.beta2, "in [0, 1)");
  require(std::isfinite(o.epsilon) && o.epsilon > 0, "epsilon", o.epsilon, "finite and > 0");
  require(std::isfinite(o.max_grad_norm) && o.max_grad_norm >= 0, "max_grad_norm", o.max_grad_norm,
          "finite and >= 0");
  require(std::isfinite(o.weight_decay) && o.weight_decay >= 0, "weight_decay", o.weight_decay,
          "finite and >= 0");
}

template <class T>
Adam<T>::Adam(std::shared_ptr<const ParameterLayout> layout, AdamOptions options)
    : layout_(std::move(layout)), options_(options) {
  if (layout_ == nullptr) fail("the parameter layout is null");
  validate(options_);
  m_ = ParameterSet<T>(layout_);
  v_ = ParameterSet<T>(layout_);
}

template <class T>
void Adam<T>::set_learning_rate(double learning_rate) {
  AdamOptions changed = options_;
  changed.learning_rate = learning_rate;
  validate(changed);
  options_ = changed;
}

template <class T>
double Adam<T>::step(ParameterSet<T>& params, ParameterSet<T>& grads) {
  check_layout(layout_, params, "params");
  check_layout(layout_, grads, "grads");
  const std::span<T> p = params.values();
  const std::span<T> g = grads.values();

  // Check everything before changing anything.
  double sum_squares = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (!std::isfinite(g[i])) {
      fail("the gradient of '" + tensor_at(*layout_, i) + "' is not finite");
    }
    sum_squares += static_cast<double>(g[i]) * static_cast<double>(g[i]);
  }
  const double norm = std::sqrt(sum_squares);
  if (!std::isfinite(norm)) fail("the gradient norm overflows");

  if (options_.max_grad_norm > 0 && norm > options_.max_grad_norm) {
    const double scale = options_.max_grad_norm / norm;
    for (T& x : g) {
      x = static_cast<T>(static_cast<double>(x) * scale);
    }
  }

  ++steps_;
  const auto t = static_cast<double>(steps_);
  const double b1 = options_.beta1, b2 = options_.beta2, lr = options_.learning_rate;
  const double step_size = lr / (1 - portable::pow_positive(b1, t));
  const double sqrt_correction2 = std::sqrt(1 - portable::pow_positive(b2, t));
  const double decay = 1 - lr * options_.weight_decay;
  const std::span<T> m = m_.values();
  const std::span<T> v = v_.values();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto gi = static_cast<double>(g[i]);
    const double mi = b1 * static_cast<double>(m[i]) + (1 - b1) * gi;
    const double vi = b2 * static_cast<double>(v[i]) + (1 - b2) * gi * gi;
    m[i] = static_cast<T>(mi);
    v[i] = static_cast<T>(vi);
    const double denominator = std::sqrt(vi) / sqrt_correction2 + options_.epsilon;
    p[i] = static_cast<T>(static_cast<double>(p[i]) * decay - step_size * mi / denominator);
  }
  return norm;
}

template <class T>
void Adam<T>::set_state(std::uint64_t step_count, const ParameterSet<T>& first_moment,
                        const ParameterSet<T>& second_moment) {
  check_layout(layout_, first_moment, "the first moments");
  check_layout(layout_, second_moment, "the second moments");
  const std::span<const T> m = first_moment.values();
  const std::span<const T> v = second_moment.values();
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (!std::isfinite(m[i])) {
      fail("the first moment of '" + tensor_at(*layout_, i) + "' is not finite");
    }
    if (!std::isfinite(v[i]) || v[i] < 0) {
      fail("the second moment of '" + tensor_at(*layout_, i) + "' is not finite and >= 0");
    }
  }
  steps_ = step_count;
  std::copy(m.begin(), m.end(), m_.values().begin());
  std::copy(v.begin(), v.end(), v_.values().begin());
}

template class Adam<float>;
template class Adam<double>;

}  // namespace memplace::nn
