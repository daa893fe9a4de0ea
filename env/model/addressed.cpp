#include "env/model/addressed.hpp"

#include <algorithm>
#include <array>

#include "env/allocation/greedy_packing.hpp"
#include "env/allocation/packer.hpp"
#include "env/allocation/packing_check.hpp"
#include "env/model/simulator.hpp"
#include "env/model/tensor_allocation.hpp"

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
    overflow = std::max(overflow, r.greedy_height - sim.capacity(memory));
    return false;
  }
  std::size_t i = 0;
  for (std::size_t t = 0; t < mapping.size(); ++t)
    if (mapping[t] == memory) tensor_offset[t] = r.offsets[i++];  // the problem's order: by id
  given_blocks(sim, mapping, memory, tensor_offset, blocks);
  return true;
}

// Step 3 for one copy: the first layer from `c.issue` at which a range of c.bytes stays free in
// `blocks` until c.reader ends, and the best-fitting such range's offset; {c.reader, -1} if none.
std::pair<std::uint32_t, std::int64_t> find_buffer(const Copy& c, std::span<const Block> blocks,
                                                   std::int64_t capacity, std::int64_t alignment) {
  thread_local std::vector<const Block*> overlapping;
  thread_local std::vector<std::pair<std::int64_t, std::int64_t>> taken;
  overlapping.clear();
  for (const Block& b : blocks)
    if (b.first <= c.reader && b.last >= c.issue) overlapping.push_back(&b);
  std::ranges::sort(overlapping, {}, [](const Block* b) { return b->offset; });
  for (std::uint32_t start = c.issue; start < c.reader; ++start) {
    taken.clear();
    for (const Block* b : overlapping)
      if (b->last >= start) taken.emplace_back(b->offset, b->end);  // not freed before `start`
    const std::int64_t offset =
        allocation::fit_offset(taken, c.bytes, allocation::FitRule::best_fit, alignment, capacity);
    if (offset >= 0) return {start, offset};
  }
  return {c.reader, -1};
}

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
  return allocation::pack(problem, {kAllocationSeconds, budget}, /*greedy_only=*/budget == 0);
}

void evaluate_addressed(const Simulator& sim, const StreamingPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out,
                        AddressedLayout* layout, std::span<const std::int64_t> tensor_offsets) {
  thread_local std::vector<TimeFs> loads, v0_fs, log;
  thread_local DmaState state;
  const std::size_t n = sim.num_layers(), m_count = sim.num_memories();

  // 1. v1, with the log.
  loads.resize(n * m_count);
  sim.evaluate_pinned(mapping, out, loads.data());
  v0_fs = out.layer_fs;
  state.copies.clear();
  if (plan.dma_possible()) {
    start_dma(sim, plan, mapping, state);
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
  thread_local std::vector<std::uint32_t> start;
  start.resize(copies.size());
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const Copy& c = copies[i];
    const auto [first, offset] = find_buffer(c, blocks[c.stage], sim.capacity(c.stage),
                                             sim.hardware().memories[c.stage].alignment_bytes);
    start[i] = first;
    if (offset >= 0) blocks[c.stage].push_back({offset, offset + c.bytes, first, c.reader});
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
