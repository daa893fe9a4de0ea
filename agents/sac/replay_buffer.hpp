// A capacity-bounded ring buffer of (mapping, reward) pairs for the single-step setting: the state
// is the same graph every time, so only the action (one byte per tensor) and the reward are kept.
// When full, each new pair overwrites the oldest. Minibatches are drawn uniformly with replacement
// from a caller's Rng, so a seeded learner draws the same minibatches on every run.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/rng.hpp"
#include "base/state_archive.hpp"

namespace memplace::agents {

class ReplayBuffer {
 public:
  // Throws std::invalid_argument on a zero capacity or zero tensors. Storage grows with use, up
  // to capacity x tensors bytes (100 k bert-base mappings: 75 MB).
  ReplayBuffer(std::size_t capacity, std::size_t tensors);

  // Appends a pair, overwriting the oldest when full. Throws std::invalid_argument on a mapping
  // of the wrong length or a non-finite reward.
  void add(std::span<const std::uint8_t> mapping, double reward);

  std::size_t size() const { return rewards_.size(); }
  std::size_t capacity() const { return capacity_; }
  std::size_t tensors() const { return tensors_; }
  std::uint64_t total_added() const { return added_; }  // including the overwritten ones

  // Slot i (0 <= i < size()) in storage order, not age order: slot (total_added() - 1) % capacity
  // holds the newest.
  std::span<const std::uint8_t> mapping(std::size_t i) const;
  double reward(std::size_t i) const { return rewards_.at(i); }

  // `count` slots drawn uniformly with replacement (exactly one rng.uniform(size()) each), their
  // mappings concatenated into `actions` (count x tensors) and their rewards into `rewards`.
  // Throws std::logic_error when the buffer is empty.
  void sample(std::size_t count, Rng& rng, std::vector<std::uint8_t>& actions,
              std::vector<double>& rewards) const;

  // Records "<prefix>.*"; load() checks that capacity and tensors agree with this buffer's.
  void save(StateWriter& out, std::string_view prefix) const;
  void load(StateReader& in, std::string_view prefix);

 private:
  std::size_t capacity_;
  std::size_t tensors_;
  std::uint64_t added_ = 0;
  std::vector<std::uint8_t> mappings_;  // size() x tensors
  std::vector<double> rewards_;
};

}  // namespace memplace::agents
