// The malloc env's per-state arrays in one allocation: search agents clone a state at every
// node, and one allocation and one copy (of the blocks in use, not of their capacity) cost a
// fraction of a vector each (docs/performance.md "The malloc env").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace {

// Tensor `tensor`'s address range [offset, offset + its bytes) of an on-chip memory, held over
// the steps [first, last].
struct AddressBlock {
  std::int64_t offset;
  std::uint32_t tensor;
  std::uint32_t first;
  std::uint32_t last;
};

class MallocArrays {
 public:
  struct Sizes {
    std::size_t tensors = 0;
    std::size_t actions = 0;
    std::size_t dynamic = 0;     // floats of the dynamic node features
    std::size_t grid = 0;        // floats of the occupancy grid
    std::size_t max_blocks = 0;  // blocks over every memory
  };
  explicit MallocArrays(const Sizes& sizes);
  MallocArrays(const MallocArrays& other);
  MallocArrays& operator=(const MallocArrays&) = delete;

  std::span<std::int64_t> candidates() {
    return {at<std::int64_t>(candidates_at_), sizes_.actions};
  }
  std::span<float> dynamic() { return {at<float>(dynamic_at_), sizes_.dynamic}; }
  std::span<float> grid() { return {at<float>(grid_at_), sizes_.grid}; }
  std::span<MemoryIndex> mapping() { return {at<MemoryIndex>(mapping_at_), sizes_.tensors}; }
  std::span<std::uint8_t> mask() { return {at<std::uint8_t>(mask_at_), sizes_.actions}; }
  std::span<const std::int64_t> candidates() const {
    return {at<std::int64_t>(candidates_at_), sizes_.actions};
  }
  std::span<const float> dynamic() const { return {at<float>(dynamic_at_), sizes_.dynamic}; }
  std::span<const float> grid() const { return {at<float>(grid_at_), sizes_.grid}; }
  std::span<const MemoryIndex> mapping() const {
    return {at<MemoryIndex>(mapping_at_), sizes_.tensors};
  }
  std::span<const std::uint8_t> mask() const {
    return {at<std::uint8_t>(mask_at_), sizes_.actions};
  }

  // Memory k's blocks, by offset; every memory's, memory by memory.
  std::span<const AddressBlock> blocks(std::size_t k) const;
  std::span<const AddressBlock> all_blocks() const {
    return {at<AddressBlock>(blocks_at_), blocks_in_use()};
  }
  // Adds a block to memory k's (std::length_error beyond max_blocks in all).
  void insert_block(std::size_t k, const AddressBlock& block);
  void clear_blocks() { block_count_.fill(0); }

 private:
  template <typename T>
  T* at(std::size_t offset) const {
    return reinterpret_cast<T*>(bytes_.get() + offset);
  }

  std::size_t blocks_in_use() const;

  Sizes sizes_;
  // Byte offsets of the arrays; the blocks come last, so that a copy stops at those in use.
  std::size_t candidates_at_ = 0, dynamic_at_ = 0, grid_at_ = 0, mapping_at_ = 0, mask_at_ = 0,
              blocks_at_ = 0, total_bytes_ = 0;
  std::array<std::uint32_t, kMaxMemories> block_count_{};
  std::unique_ptr<std::byte[]> bytes_;  // new[] of bytes: the arrays' objects exist implicitly
};

}  // namespace memplace
