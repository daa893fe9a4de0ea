// Random zero-slack allocation problems (a test tool and the benchmark of docs/allocation.md):
// buffers cut out of a full time x address rectangle, so that at every step the live buffers fill
// the capacity exactly (the peak equals the capacity, no byte to spare) and a packing exists — the
// one they were cut from. Such problems are where greedy packers fail and exact search is needed.
#pragma once

#include <cstdint>
#include <vector>

#include "allocation/problem.hpp"

namespace memplace::allocation {

struct ZeroSlackProblem {
  Problem problem;                    // ids "0", "1", ... in a random order
  std::vector<std::int64_t> offsets;  // the packing it was cut from
  // generate_with_spare_bytes: the buffers removed (ids "removed 0", ...) and where they were in
  // the cut — the free space `offsets` leaves, so the phantom holes of one right guess (a
  // development aid: allocation/hole_reach.hpp). Empty for a zero-slack problem.
  std::vector<Buffer> removed;
  std::vector<std::int64_t> removed_offsets;
};

// `buffers` >= 1 buffers in a memory of `capacity` >= `buffers` bytes. The address space is a row
// of segments, each a buffer; at every step a few neighbouring segments end and their range is cut
// anew into 1-3 new buffers, until `buffers` have been made. It starts with buffers / 16 live; on
// average 6-16 are live at once for 100-450 buffers. The same arguments give the same problem on
// any machine.
ZeroSlackProblem generate_zero_slack(int buffers, std::int64_t capacity, std::uint64_t seed);

// A problem with spare bytes: a zero-slack cut of `buffers` + ceil(`buffers` x `spare_percent` /
// 100) buffers, of which that many more than `buffers` are removed at random, so that the memory
// has spare bytes where they were — the class of MiniMalloc's published problems E, I and K,
// whose busiest steps are full and most others 94-99 % (docs/allocation.md). `buffers` remain
// (ids "0", "1", ...), in a memory of `capacity`, and the packing they were cut from still holds
// (`offsets`). `spare_percent` in [0, 100]; 0 gives generate_zero_slack's problem.
ZeroSlackProblem generate_with_spare_bytes(int buffers, std::int64_t capacity, std::uint64_t seed,
                                           int spare_percent);

}  // namespace memplace::allocation
