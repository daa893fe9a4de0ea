// Parameters in one flat buffer with named views.
//
// A model declares its tensors once (a ParameterLayout: name, rows x cols, offset); the values
// live in one contiguous buffer, so a copy is one memcpy, the EA mutates and crosses over rows by
// name, Adam walks one array, and save/load write one block. Gradients use the same layout.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "agents/nn/buffer.hpp"

namespace memplace::nn {

struct TensorSpec {
  std::string name;
  std::size_t rows = 0;
  std::size_t cols = 0;    // a vector (a bias) is 1 x cols
  std::size_t offset = 0;  // into the flat buffer
  std::size_t size() const { return rows * cols; }
  friend bool operator==(const TensorSpec&, const TensorSpec&) = default;
};

class ParameterLayout {
 public:
  // Appends a tensor; names must be unique. Returns its index.
  std::size_t add(std::string name, std::size_t rows, std::size_t cols);
  const std::vector<TensorSpec>& tensors() const { return tensors_; }
  const TensorSpec& tensor(std::size_t index) const { return tensors_.at(index); }
  // The index of the tensor called `name`; throws std::out_of_range naming it.
  std::size_t index_of(const std::string& name) const;
  std::size_t size() const { return size_; }  // total number of scalars
  friend bool operator==(const ParameterLayout&, const ParameterLayout&) = default;

 private:
  std::vector<TensorSpec> tensors_;
  std::size_t size_ = 0;
};

template <class T>
class ParameterSet {
 public:
  ParameterSet() = default;
  explicit ParameterSet(std::shared_ptr<const ParameterLayout> layout)
      : layout_(std::move(layout)), values_(layout_->size(), T(0)) {}

  const ParameterLayout& layout() const { return *layout_; }
  const std::shared_ptr<const ParameterLayout>& shared_layout() const { return layout_; }
  std::size_t size() const { return values_.size(); }

  std::span<T> values() { return values_; }
  std::span<const T> values() const { return values_; }
  std::span<T> tensor(std::size_t index) {
    const TensorSpec& t = layout_->tensor(index);
    return std::span<T>(values_).subspan(t.offset, t.size());
  }
  std::span<const T> tensor(std::size_t index) const {
    const TensorSpec& t = layout_->tensor(index);
    return std::span<const T>(values_).subspan(t.offset, t.size());
  }
  std::span<T> tensor(const std::string& name) { return tensor(layout_->index_of(name)); }
  std::span<const T> tensor(const std::string& name) const {
    return tensor(layout_->index_of(name));
  }

  void set_zero() { std::fill(values_.begin(), values_.end(), T(0)); }
  // The same parameters in another precision (tests compare float against double).
  template <class U>
  ParameterSet<U> cast() const {
    ParameterSet<U> out(layout_);
    for (std::size_t i = 0; i < values_.size(); ++i)
      out.values()[i] = static_cast<U>(values_[i]);
    return out;
  }

 private:
  std::shared_ptr<const ParameterLayout> layout_;
  Buffer<T> values_;
};

}  // namespace memplace::nn
