#include "agents/nn/parameters.hpp"

#include <stdexcept>

namespace memplace::nn {

std::size_t ParameterLayout::add(std::string name, std::size_t rows, std::size_t cols) {
  for (const TensorSpec& t : tensors_) {
    if (t.name == name) throw std::invalid_argument("duplicate parameter name '" + name + "'");
  }
  tensors_.push_back(TensorSpec{std::move(name), rows, cols, size_});
  size_ += rows * cols;
  return tensors_.size() - 1;
}

std::size_t ParameterLayout::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < tensors_.size(); ++i) {
    if (tensors_[i].name == name) return i;
  }
  throw std::out_of_range("no parameter named '" + name + "'");
}

}  // namespace memplace::nn
