#include "agents/sac/replay_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace memplace::agents {

ReplayBuffer::ReplayBuffer(std::size_t capacity, std::size_t tensors)
    : capacity_(capacity), tensors_(tensors) {
  if (capacity == 0) throw std::invalid_argument("ReplayBuffer: capacity must be positive");
  if (tensors == 0) throw std::invalid_argument("ReplayBuffer: tensors must be positive");
}

void ReplayBuffer::add(std::span<const std::uint8_t> mapping, double reward) {
  if (mapping.size() != tensors_)
    throw std::invalid_argument("ReplayBuffer: a mapping of " + std::to_string(mapping.size()) +
                                " tensors, expected " + std::to_string(tensors_));
  if (!std::isfinite(reward)) throw std::invalid_argument("ReplayBuffer: a non-finite reward");
  if (rewards_.size() < capacity_) {
    mappings_.insert(mappings_.end(), mapping.begin(), mapping.end());
    rewards_.push_back(reward);
  } else {
    const std::size_t slot = added_ % capacity_;
    std::copy(mapping.begin(), mapping.end(), mappings_.begin() + slot * tensors_);
    rewards_[slot] = reward;
  }
  ++added_;
}

std::span<const std::uint8_t> ReplayBuffer::mapping(std::size_t i) const {
  if (i >= size())
    throw std::out_of_range("ReplayBuffer: slot " + std::to_string(i) + " of " +
                            std::to_string(size()));
  return std::span<const std::uint8_t>(mappings_).subspan(i * tensors_, tensors_);
}

void ReplayBuffer::sample(std::size_t count, Rng& rng, std::vector<std::uint8_t>& actions,
                          std::vector<double>& rewards) const {
  if (size() == 0) throw std::logic_error("ReplayBuffer: sampling from an empty buffer");
  actions.resize(count * tensors_);
  rewards.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t slot = rng.uniform(size());
    std::copy_n(mappings_.begin() + slot * tensors_, tensors_, actions.begin() + k * tensors_);
    rewards[k] = rewards_[slot];
  }
}

void ReplayBuffer::save(StateWriter& out, std::string_view prefix) const {
  out.put(state_key(prefix, "capacity"), static_cast<std::uint64_t>(capacity_));
  out.put(state_key(prefix, "tensors"), static_cast<std::uint64_t>(tensors_));
  out.put(state_key(prefix, "added"), added_);
  out.put_array<std::uint8_t>(state_key(prefix, "mappings"), mappings_);
  out.put_array<double>(state_key(prefix, "rewards"), rewards_);
}

void ReplayBuffer::load(StateReader& in, std::string_view prefix) {
  const std::uint64_t capacity = in.get_u64(state_key(prefix, "capacity"));
  const std::uint64_t tensors = in.get_u64(state_key(prefix, "tensors"));
  if (capacity != capacity_ || tensors != tensors_)
    throw std::runtime_error(in.source() + ": replay buffer '" + std::string(prefix) + "' holds " +
                             std::to_string(capacity) + " x " + std::to_string(tensors) +
                             " (capacity x tensors), expected " + std::to_string(capacity_) +
                             " x " + std::to_string(tensors_));
  const std::uint64_t added = in.get_u64(state_key(prefix, "added"));
  std::vector<std::uint8_t> mappings = in.get_array<std::uint8_t>(state_key(prefix, "mappings"));
  std::vector<double> rewards = in.get_array<double>(state_key(prefix, "rewards"));
  if (rewards.size() != std::min<std::uint64_t>(added, capacity_) ||
      mappings.size() != rewards.size() * tensors_)
    throw std::runtime_error(in.source() + ": replay buffer '" + std::string(prefix) +
                             "' is inconsistent (" + std::to_string(rewards.size()) + " rewards, " +
                             std::to_string(mappings.size()) + " mapping bytes, " +
                             std::to_string(added) + " added)");
  added_ = added;
  mappings_ = std::move(mappings);
  rewards_ = std::move(rewards);
}

}  // namespace memplace::agents
