#include "model/dynamics/addressed.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "allocation/gaps.hpp"
#include "allocation/greedy_packing.hpp"
#include "allocation/packer.hpp"
#include "allocation/packing_check.hpp"
#include "model/simulator.hpp"
#include "model/tensor_allocation.hpp"

namespace memplace::detail {
namespace {

// The allocator's time limit inside an evaluation: far beyond what its placement budget takes, so
// the budget, not the machine, decides (docs/cost-model.md "Addresses").
constexpr double kAllocationSeconds = 3600;

// An address range held over the steps [first, last].
struct Block {
  std::int64_t offset = 0;
  std::int64_t end = 0;
  std::uint32_t first = 0;
  std::uint32_t last = 0;
};

// The blocks of the tensors `mapping` homes in `memory` at the given offsets.
void given_blocks(const Simulator& sim, std::span<const MemoryIndex> mapping, std::size_t memory,
                  std::span<const std::int64_t> tensor_offset, std::vector<Block>& blocks) {
  for (std::size_t t = 0; t < mapping.size(); ++t)
    if (mapping[t] == memory && sim.tensor_bytes(t) > 0)
      blocks.push_back({tensor_offset[t], tensor_offset[t] + sim.tensor_bytes(t),
                        static_cast<std::uint32_t>(sim.live_first(t)),
                        static_cast<std::uint32_t>(sim.live_last(t))});
}

// Step 2 for one memory: the tensors' offsets into `tensor_offset` and their blocks; false (and
// the overflow) when the allocator finds no packing.
bool pack_tensors(const Simulator& sim, std::span<const MemoryIndex> mapping, std::size_t memory,
                  std::vector<std::int64_t>& tensor_offset, std::vector<Block>& blocks,
                  std::int64_t& overflow) {
  const allocation::PackResult r = pack_memory(sim, mapping, memory);
  if (r.outcome != allocation::SearchOutcome::packed) {
    // (the greedy packings finish long before the allocator's hour; the peak is the least)
    overflow = std::max(overflow, r.greedy_height.value_or(r.peak) - sim.capacity(memory));
    return false;
  }
  std::size_t i = 0;
  for (std::size_t t = 0; t < mapping.size(); ++t)
    if (mapping[t] == memory) tensor_offset[t] = r.offsets[i++];  // the problem's order: by id
  given_blocks(sim, mapping, memory, tensor_offset, blocks);
  return true;
}

// Step 3: the staging buffers' addresses, copy by copy in plan order (by reader). A sweep over the
// readers keeps, per memory, the blocks that can still meet a copy's window in offset order, so a
// copy looks at the blocks live around it, not at every block of the memory.
class StagingAllocator {
 public:
  // `blocks`: each memory's tensor blocks; `window`: the longest reader - issue of any copy.
  StagingAllocator(std::array<std::vector<Block>, kMaxMemories>& blocks, std::uint32_t window)
      : pending_(blocks), window_(window) {
    for (std::vector<Block>& p : pending_)
      std::ranges::sort(p, {}, [](const Block& b) { return b.first; });
  }

  // The first layer from `c.issue` at which a range of c.bytes stays free until c.reader ends, and
  // the best-fitting such range's offset ({c.reader, -1} if none); the buffer then holds it.
  std::pair<std::uint32_t, std::int64_t> place(const Copy& c, std::int64_t capacity,
                                               std::int64_t alignment) {
    std::vector<Block>& active = active_[c.stage];
    const std::vector<Block>& pending = pending_[c.stage];
    std::size_t& next = next_[c.stage];
    for (; next < pending.size() && pending[next].first <= c.reader; ++next)
      insert(active, pending[next]);
    const std::uint32_t horizon = c.reader > window_ ? c.reader - window_ : 0;
    std::erase_if(active, [&](const Block& b) { return b.last < horizon; });  // ends before any
    // Fitting is monotone in the start (a later start frees the blocks that end before it), so
    // the first start that fits is found by bisection: at the issue (most copies), else at the
    // last start (none fits if that does not), else between them.
    if (c.issue >= c.reader) return {c.reader, -1};
    std::int64_t offset = fit(active, c, c.issue, capacity, alignment);
    std::uint32_t start = c.issue;
    if (offset < 0 && c.issue + 1 < c.reader) {
      std::uint32_t fits = c.reader - 1;  // invariant: nothing fits at `fails`; `fits` fits
      offset = fit(active, c, fits, capacity, alignment);
      if (offset >= 0) {
        for (std::uint32_t fails = c.issue; fits - fails > 1;) {
          const std::uint32_t middle = fails + (fits - fails) / 2;
          const std::int64_t at = fit(active, c, middle, capacity, alignment);
          if (at >= 0) {
            fits = middle, offset = at;
          } else {
            fails = middle;
          }
        }
        start = fits;
      }
    }
    if (offset >= 0) {
      insert(active, {offset, offset + c.bytes, start, c.reader});
      return {start, offset};
    }
    return {c.reader, -1};
  }

 private:
  // The best-fitting offset for c's buffer from `start` to c.reader among `active`'s blocks, or -1.
  std::int64_t fit(std::span<const Block> active, const Copy& c, std::uint32_t start,
                   std::int64_t capacity, std::int64_t alignment) {
    taken_.clear();
    for (const Block& b : active)  // by offset; live at some step of [start, reader]
      if (b.first <= c.reader && b.last >= start) taken_.emplace_back(b.offset, b.end);
    return allocation::fit_offset(taken_, c.bytes, allocation::FitRule::best_fit, alignment,
                                  capacity);
  }

  static void insert(std::vector<Block>& by_offset, const Block& b) {
    const auto at = std::ranges::upper_bound(by_offset, b.offset, {}, &Block::offset);
    by_offset.insert(at, b);
  }

  std::array<std::vector<Block>, kMaxMemories>& pending_;  // by first step
  std::array<std::size_t, kMaxMemories> next_{};           // the first pending block not active
  std::array<std::vector<Block>, kMaxMemories> active_;    // by offset
  std::uint32_t window_;
  std::vector<allocation::Range> taken_;
};

// The progress log of v1's run (streaming.hpp rerun_layers): copy i's done at the start of layer
// l of its window.
TimeFs logged(const std::vector<TimeFs>& log, const StreamingPlan& plan, std::size_t i,
              const Copy& c, std::size_t l) {
  return log[i * plan.log_stride + (l - c.issue)];
}

}  // namespace

allocation::PackResult pack_memory(const Simulator& sim, std::span<const MemoryIndex> mapping,
                                   std::size_t memory) {
  const allocation::Problem problem = tensor_allocation_problem(sim, mapping, memory);
  if (problem.buffers.empty()) {
    allocation::PackResult empty;
    empty.outcome = allocation::SearchOutcome::packed;
    return empty;
  }
  const std::uint64_t budget = sim.allocation_placements();
  return allocation::pack(problem, {kAllocationSeconds, budget}, /*greedy_only=*/budget == 0, {},
                          allocation::Portfolio::cost_model_v2);
}

void evaluate_addressed(const Simulator& sim, const StreamingPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out,
                        AddressedLayout* layout, std::span<const std::int64_t> tensor_offsets) {
  thread_local std::vector<TimeFs> loads, v0_fs, log;
  thread_local DmaState state;
  const std::size_t n = sim.num_layers(), m_count = sim.num_memories();

  // 1. v1, with the log.
  evaluate_pinned_and_start_dma(sim, plan, mapping, out, loads, state);
  v0_fs = out.layer_fs;
  if (plan.dma_possible()) {
    plan_copies(sim, plan, mapping, loads.data(), 0, state);
    log.assign(state.copies.size() * plan.log_stride, 0);
    rerun_layers(sim, plan, loads.data(), 0, state, v0_fs.data(), out.layer_fs.data(), log.data(),
                 n);
    out.latency_fs = 0;
    for (const TimeFs t : out.layer_fs)
      out.latency_fs += t;
  }
  if (layout) {
    layout->tensor_offset.assign(sim.num_tensors(), -1);
    layout->packed.assign(m_count, false);
    layout->packed[m_count - 1] = true;
    layout->copies.clear();
  }
  if (!out.valid) return;  // no layout for a mapping whose bytes do not fit: v1's latency

  // 2. The tensors' addresses.
  thread_local std::vector<std::int64_t> tensor_offset;
  std::array<std::vector<Block>, kMaxMemories> blocks;
  if (tensor_offsets.empty()) {
    tensor_offset.assign(sim.num_tensors(), -1);
  } else {
    tensor_offset.assign(tensor_offsets.begin(), tensor_offsets.end());
  }
  const bool given = !tensor_offsets.empty();
  for (std::size_t m = 0; m + 1 < m_count; ++m) {
    if (given) given_blocks(sim, mapping, m, tensor_offsets, blocks[m]);
    const bool packed =
        given || pack_tensors(sim, mapping, m, tensor_offset, blocks[m], out.overflow_bytes[m]);
    out.valid = out.valid && packed;
    if (layout) layout->packed[m] = packed;
  }
  if (layout) layout->tensor_offset = tensor_offset;
  if (!out.valid || state.copies.empty()) return;

  // 3. The staging buffers' addresses, in plan order.
  const std::vector<Copy>& copies = state.copies;
  std::uint32_t window = 0;
  for (const Copy& c : copies)
    window = std::max(window, c.reader - c.issue);
  StagingAllocator staging(blocks, window);
  thread_local std::vector<std::uint32_t> start;
  start.resize(copies.size());
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const Copy& c = copies[i];
    const auto [first, offset] =
        staging.place(c, sim.capacity(c.stage), sim.hardware().memories[c.stage].alignment_bytes);
    start[i] = first;
    if (layout) layout->copies.push_back({c, first, offset});
  }

  // 4. The layers on v1's schedule, with only the progress made from each buffer's address on.
  const bool combine_max = sim.memory_time() == MemoryTimeCombine::max;
  const TimeFs overhead = plan.during_overhead ? 0 : sim.overhead_fs();
  std::size_t first_read = 0;  // the first copy whose reader is at or after the layer
  TimeFs latency = 0;
  for (std::size_t l = 0; l < n; ++l) {
    TimeFs t = out.layer_fs[l];
    while (first_read < copies.size() && copies[first_read].reader < l)
      ++first_read;
    std::array<TimeFs, kMaxMemories> load{};
    std::copy_n(&loads[l * m_count], m_count, load.begin());
    std::array<TimeFs, kMaxMemories> staged = load;
    std::array<TimeFs, kMaxMemories> dma{};
    TimeFs dma_path = 0;
    bool any_read = false, any_dma = false;
    // Copies are by reader: those read at l, then those in flight (readers up to l + lookahead).
    for (std::size_t i = first_read; i < copies.size() && copies[i].reader <= l + plan.lookahead;
         ++i) {
      const Copy& c = copies[i];
      if (c.issue > l) continue;
      if (c.reader == l) {
        any_read = true;
        const TimeFs done = start[i] >= c.reader ? 0
                                                 : logged(log, plan, i, c, c.reader) -
                                                       logged(log, plan, i, c, start[i]);
        staged[c.home] -= done;
        staged[c.stage] += stage_share(done, c.stage_fs, c.home_fs);
        if (layout) layout->copies[i].copy.done = done;
      } else if (start[i] <= l) {
        const TimeFs step = logged(log, plan, i, c, l + 1) - logged(log, plan, i, c, l);
        const TimeFs stage_step = stage_share(step, c.stage_fs, c.home_fs);
        dma[c.home] += step;
        dma[c.stage] += stage_step;
        dma_path += step + stage_step;
        any_dma = any_dma || step > 0;
      }
    }
    if (any_read || any_dma) {
      const TimeFs t_staged = sim.layer_time(l, staged.data());
      if (any_read && t_staged < v0_fs[l]) load = staged;
      t = std::max(t, std::min(t_staged, v0_fs[l]));
      TimeFs need = 0;
      if (combine_max) {
        for (std::size_t m = 0; m < m_count; ++m)
          need = std::max(need, load[m] + dma[m]);
      } else {
        need = dma_path;
        for (std::size_t m = 0; m < m_count; ++m)
          need += load[m];
      }
      t = std::max(t, need + overhead);
      out.layer_fs[l] = t;
    }
    latency += t;
  }
  out.latency_fs = latency;
}

}  // namespace memplace::detail

namespace memplace {

std::vector<std::string> layout_faults(const Simulator& sim, std::span<const MemoryIndex> mapping,
                                       std::span<const std::int64_t> tensor_offsets) {
  if (tensor_offsets.size() != sim.num_tensors())
    return {"the layout has " + std::to_string(tensor_offsets.size()) +
            " offsets; the workload has " + std::to_string(sim.num_tensors()) + " tensors"};
  std::vector<std::string> faults;
  for (std::size_t m = 0; m + 1 < sim.num_memories(); ++m) {
    const allocation::Problem problem = tensor_allocation_problem(sim, mapping, m);
    std::vector<std::int64_t> offsets;
    for (std::size_t t = 0; t < mapping.size(); ++t)
      if (mapping[t] == m) offsets.push_back(tensor_offsets[t]);
    for (std::string& fault : allocation::packing_faults(problem, offsets))
      faults.push_back(sim.hardware().memories[m].name + ": " + std::move(fault));
  }
  return faults;
}

}  // namespace memplace
