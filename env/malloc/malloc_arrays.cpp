#include "env/malloc/malloc_arrays.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace memplace {
namespace {

// Every array starts on a multiple of 8 bytes (the widest element: int64, AddressBlock).
constexpr std::size_t kAlign = alignof(AddressBlock);
static_assert(kAlign >= alignof(std::int64_t) && kAlign >= alignof(float) &&
              kAlign <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlign - 1) / kAlign * kAlign;
}

}  // namespace

MallocArrays::MallocArrays(const Sizes& sizes) : sizes_(sizes) {
  std::size_t at = 0;
  const auto place = [&at](std::size_t& offset, std::size_t bytes) {
    offset = at;
    at += aligned(bytes);
  };
  place(candidates_at_, sizes.actions * sizeof(std::int64_t));
  place(dynamic_at_, sizes.dynamic * sizeof(float));
  place(grid_at_, sizes.grid * sizeof(float));
  place(mapping_at_, sizes.tensors * sizeof(MemoryIndex));
  place(mask_at_, sizes.actions * sizeof(std::uint8_t));
  place(blocks_at_, sizes.max_blocks * sizeof(AddressBlock));
  total_bytes_ = at;
  bytes_ = std::make_unique<std::byte[]>(total_bytes_);  // zeroed
}

MallocArrays::MallocArrays(const MallocArrays& other)
    : sizes_(other.sizes_),
      candidates_at_(other.candidates_at_),
      dynamic_at_(other.dynamic_at_),
      grid_at_(other.grid_at_),
      mapping_at_(other.mapping_at_),
      mask_at_(other.mask_at_),
      blocks_at_(other.blocks_at_),
      total_bytes_(other.total_bytes_),
      block_count_(other.block_count_),
      bytes_(new std::byte[total_bytes_]) {  // not zeroed: what is read is copied
  std::memcpy(bytes_.get(), other.bytes_.get(),
              blocks_at_ + other.blocks_in_use() * sizeof(AddressBlock));
}

std::size_t MallocArrays::blocks_in_use() const {
  return std::accumulate(block_count_.begin(), block_count_.end(), std::size_t{0});
}

std::span<const AddressBlock> MallocArrays::blocks(std::size_t k) const {
  const std::size_t first = std::accumulate(
      block_count_.begin(), block_count_.begin() + static_cast<long>(k), std::size_t{0});
  return {at<AddressBlock>(blocks_at_) + first, block_count_[k]};
}

void MallocArrays::insert_block(std::size_t k, const AddressBlock& block) {
  const std::size_t in_use = blocks_in_use();
  if (in_use == sizes_.max_blocks) {
    throw std::length_error("MallocArrays: more than " + std::to_string(sizes_.max_blocks) +
                            " blocks");
  }
  AddressBlock* all = at<AddressBlock>(blocks_at_);
  const std::span<const AddressBlock> mine = blocks(k);
  const auto* position = std::upper_bound(
      mine.data(), mine.data() + mine.size(), block.offset,
      [](std::int64_t offset, const AddressBlock& b) { return offset < b.offset; });
  AddressBlock* slot = all + (position - all);
  std::memmove(slot + 1, slot,
               static_cast<std::size_t>(all + in_use - slot) * sizeof(AddressBlock));
  *slot = block;
  ++block_count_[k];
}

}  // namespace memplace
