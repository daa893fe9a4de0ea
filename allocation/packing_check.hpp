// The checker of packings (`memplace pack --check`): every claim a packing makes, re-checked from
// the buffers alone.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

// What is wrong with `offsets` (one per buffer) as a packing of `problem`, one line per fault:
// a negative or misaligned offset, a buffer that ends above the capacity, two buffers live together
// that share bytes. Empty when the packing is valid. At most `limit` lines (then a count of the
// rest).
std::vector<std::string> packing_faults(const Problem& problem,
                                        std::span<const std::int64_t> offsets,
                                        std::size_t limit = 20);

// The highest byte a packing uses: max over buffers of offset + size (0 for no buffers).
std::int64_t packing_height(std::span<const Buffer> buffers, std::span<const std::int64_t> offsets);

}  // namespace memplace::allocation
