// The addressed dynamics (cost model v2, docs/cost-model.md "Addresses"): v1, where every tensor
// in an on-chip memory and every DMA staging buffer also needs an address range for its whole
// life, as a compiler's allocator gives it.
//
// Evaluation, for a mapping:
//  1. v1's evaluation, logging each copy's progress at every layer of its window: v1's DMA plan
//     and progress are the static schedule v2 keeps (a compiler plans the DMA, then allocates).
//  2. The tensors' addresses: in every memory but the slowest, the tensors homed there are an
//     allocation problem (allocation/) solved by the greedy packings, then the exact search up
//     to a placement budget (deterministic on every machine). A memory the allocator cannot pack
//     makes the mapping invalid; its overflow is the best greedy packing's height over capacity.
//  3. The staging buffers' addresses, in plan order: a copy's buffer takes the best-fitting free
//     range (the smallest gap it fits, ties to the lower address) at the first layer of its v1
//     window from which one stays free until its reader ends; a copy with none is never made.
//  4. The layers again: a copy makes only the progress v1 gave it from the layer its buffer has an
//     address; each layer reads what was copied and the rest from home (v1's rule), and lasts at
//     least its v1 time, at least what its reads need, and at least what the DMA work the schedule
//     kept in it needs on every port. So v2 latency >= v1 latency for every mapping, and equal when
//     every buffer gets its address at its v1 issue.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "allocation/packer.hpp"
#include "model/dynamics/streaming.hpp"
#include "model/inputs/mapping.hpp"

namespace memplace {

class Simulator;
struct Evaluation;

// Where v2 puts a mapping's on-chip data (for display, checks and the malloc env).
struct AddressedLayout {
  // Per tensor: its offset in its home memory; -1 in the slowest memory (no address needed) or
  // when its memory could not be packed.
  std::vector<std::int64_t> tensor_offset;
  // Per memory: whether its tensors were given addresses (the slowest memory: always; none of the
  // others when the mapping's bytes do not fit, as no packing is tried then).
  std::vector<bool> packed;
  struct StagedCopy {
    detail::Copy copy;         // v1's copy (its `done`: v2's progress when read)
    std::uint32_t start = 0;   // the first layer its buffer has an address (== reader: none)
    std::int64_t offset = -1;  // the buffer's offset in copy.stage, or -1
  };
  std::vector<StagedCopy> copies;  // in plan order
};

namespace detail {

// Step 2 for one memory: the allocator's answer for the tensors `mapping` homes in `memory`
// (offsets in tensor id order when packed).
allocation::PackResult pack_memory(const Simulator& sim, std::span<const MemoryIndex> mapping,
                                   std::size_t memory);

// Fills `out` under the addressed dynamics; with `layout`, also where everything went. With
// `tensor_offsets` (one per tensor, as AddressedLayout::tensor_offset), the tensors keep those
// addresses instead of the allocator's (the malloc env's layout): they must be a valid
// packing of every memory, which the caller has checked (layout_faults).
void evaluate_addressed(const Simulator& sim, const StreamingPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out,
                        AddressedLayout* layout = nullptr,
                        std::span<const std::int64_t> tensor_offsets = {});

}  // namespace detail

// What is wrong with `tensor_offsets` as the addresses of `mapping`'s on-chip tensors, one line per
// fault (packing_faults of each memory but the slowest, naming the tensors); empty when valid.
std::vector<std::string> layout_faults(const Simulator& sim, std::span<const MemoryIndex> mapping,
                                       std::span<const std::int64_t> tensor_offsets);

namespace detail {}  // namespace detail
}  // namespace memplace
