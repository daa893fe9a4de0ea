#include "model/dynamics/streaming.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/simulator.hpp"

namespace memplace::detail {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang; __extension__ keeps -Wpedantic quiet

// The most home-port time a copy may advance with `stage_idle` of its staging port:
// floor(stage_idle * home / stage), so that stage_share of it is at most stage_idle.
TimeFs home_within(TimeFs stage_idle, TimeFs stage_fs, TimeFs home_fs) {
  const u128 num = static_cast<u128>(stage_idle) * static_cast<u128>(home_fs);
  return static_cast<TimeFs>(num / static_cast<u128>(stage_fs));
}

// The memory a read comes from: its tensor's, or the slowest for the graph's input (selected,
// not branched on, so that the candidates' listing has no branch).
std::size_t home_of(const StreamRead& read, std::span<const MemoryIndex> mapping,
                    std::size_t slowest) {
  const bool graph_input = read.tensor == StreamRead::kGraphInput;
  const std::size_t memory = mapping[graph_input ? 0 : read.tensor];
  return graph_input ? slowest : memory;
}

}  // namespace

TimeFs stage_share(TimeFs done, TimeFs stage_fs, TimeFs home_fs) {
  if (done == home_fs) return stage_fs;  // a whole or an empty copy needs no division: most
  if (done == 0) return 0;
  const u128 num = static_cast<u128>(done) * static_cast<u128>(stage_fs);
  return static_cast<TimeFs>((num + static_cast<u128>(home_fs) - 1) / static_cast<u128>(home_fs));
}

StreamingPlan build_streaming_plan(const Simulator& sim) {
  StreamingPlan plan;
  plan.pinned = build_evaluation_plan(sim);
  const Hardware& hw = sim.hardware();
  plan.staging = hw.staging_memories();
  plan.slot_of.fill(plan.staging.size());
  for (std::size_t k = 0; k < plan.staging.size(); ++k)
    plan.slot_of[plan.staging[k]] = k;
  plan.lookahead = static_cast<std::size_t>(hw.dma.lookahead);
  plan.during_overhead = hw.dma.during_overhead;
  const std::size_t n = sim.num_layers(), m_count = sim.num_memories();
  plan.log_stride = std::min(plan.lookahead, n) + 1;
  plan.read_offsets.assign(n + 1, 0);
  for (std::size_t l = 0; l < n; ++l) {
    plan.output_last.push_back(
        static_cast<std::uint32_t>(sim.live_last(tensor_id(l, TensorKind::activation))));
  }
  auto window_start = [&](std::size_t reader, std::size_t data_from) {
    return std::max(data_from, reader >= plan.lookahead ? reader - plan.lookahead : 0);
  };
  for (std::size_t l = 0; l < n; ++l) {
    const Layer& layer = sim.workload().layer(l);
    auto add = [&](std::uint32_t tensor, std::size_t start, std::int64_t bytes, auto fs_of) {
      if (bytes <= 0 || start + 1 > l) return;  // nothing to read, or no layer to copy in
      StreamRead r;
      r.tensor = tensor;
      r.reader = static_cast<std::uint32_t>(l);
      r.window_start = static_cast<std::uint32_t>(start);
      r.bytes = bytes;
      for (std::size_t m = 0; m < m_count; ++m)
        r.fs[m] = fs_of(m);
      plan.reads.push_back(r);
    };
    // A gathered weight (traffic below its footprint, as an embedding) is not prefetchable.
    if (layer.weight_traffic_bytes == layer.weight_bytes) {
      add(static_cast<std::uint32_t>(tensor_id(l, TensorKind::weight)), window_start(l, 0),
          layer.weight_traffic_bytes, [&](std::size_t m) { return sim.weight_fs(l, m); });
    }
    for (const Simulator::Dependency& d : sim.in_edges(l)) {
      std::int64_t bytes = 0;
      for (const InputEdge& e : layer.inputs)
        bytes += e.producer == d.layer ? e.bytes : 0;
      add(static_cast<std::uint32_t>(tensor_id(d.layer, TensorKind::activation)),
          window_start(l, d.layer + 1), bytes,
          [&](std::size_t m) { return sim.read_fs(d.index, m); });
    }
    add(StreamRead::kGraphInput, window_start(l, 0), layer.external_input_bytes,
        [&](std::size_t m) {
          return duration_fs(layer.external_input_bytes, hw.memories[m].bandwidth_bytes_per_s);
        });
    plan.read_offsets[l + 1] = plan.reads.size();
  }
  return plan;
}

void start_dma(const Simulator& sim, const StreamingPlan& plan,
               std::span<const MemoryIndex> mapping, DmaState& state) {
  const std::size_t n = sim.num_layers(), slots = plan.staging.size();
  state.used.resize(slots * n);  // every entry is written below
  state.held.assign(n, 0);
  state.copies.clear();
  // Pinned weight bytes per staging memory, summed under masks: a branch on the memory would
  // mispredict half the time on random mappings, and a sum into pinned[memory] per weight would
  // chain every addition through memory.
  std::array<std::int64_t, kMaxMemories> pinned{};
  for (std::size_t l = 0; l < n; ++l) {
    const std::size_t weight = tensor_id(l, TensorKind::weight);
    const std::int64_t bytes = sim.tensor_bytes(weight);
    for (std::size_t k = 0; k < slots; ++k)
      pinned[k] += bytes & -static_cast<std::int64_t>(mapping[weight] == plan.staging[k]);
  }
  // Live activations as changes per step (row `slots` takes the other memories' changes, so the
  // loop has no branch for random mappings to mispredict), then running sums on the weights, the
  // memories side by side so that their sums do not wait for each other.
  state.delta.assign((slots + 1) * (n + 1), 0);
  for (std::size_t l = 0; l < n; ++l) {
    const std::size_t act = tensor_id(l, TensorKind::activation);
    std::int64_t* delta = &state.delta[plan.slot_of[mapping[act]] * (n + 1)];
    delta[l] += sim.tensor_bytes(act);
    delta[plan.output_last[l] + 1] -= sim.tensor_bytes(act);
  }
  std::array<std::int64_t, kMaxMemories> live = pinned;
  for (std::size_t step = 0; step < n; ++step) {
    for (std::size_t k = 0; k < slots; ++k)
      state.used[k * n + step] = live[k] += state.delta[k * (n + 1) + step];
  }
}

void evaluate_pinned_and_start_dma(const Simulator& sim, const StreamingPlan& plan,
                                   std::span<const MemoryIndex> mapping, Evaluation& out,
                                   std::vector<TimeFs>& loads, DmaState& state) {
  state.copies.clear();
  if (!plan.dma_possible()) {  // v1 is v0
    evaluate_pinned(sim, plan.pinned, mapping, out);
    return;
  }
  const std::size_t n = sim.num_layers(), slots = plan.staging.size();
  loads.resize(n * sim.num_memories());
  state.in_use.resize((n + 1) * kMaxMemories);
  const StreamingStart start{.loads = loads.data(), .in_use = state.in_use.data()};
  evaluate_pinned(sim, plan.pinned, mapping, out, &start);
  state.used.resize(slots * n);
  for (std::size_t k = 0; k < slots; ++k) {
    const std::int64_t* in_use = &state.in_use[plan.staging[k]];
    std::int64_t* used = &state.used[k * n];
    for (std::size_t step = 0; step < n; ++step)
      used[step] = in_use[step * kMaxMemories];
  }
  state.held.assign(n, 0);
}

void plan_copies(const Simulator& sim, const StreamingPlan& plan,
                 std::span<const MemoryIndex> mapping, const TimeFs* loads, std::size_t from,
                 DmaState& state) {
  const std::size_t n = sim.num_layers(), m_count = sim.num_memories();
  const std::size_t slots = plan.staging.size(), slowest = m_count - 1;
  const bool combine_max = sim.memory_time() == MemoryTimeCombine::max;
  std::int64_t* const used_all = state.used.data();
  std::uint32_t* const held = state.held.data();
  // The reads whose prefetch could shorten their layer, listed first without a branch: for random
  // mappings the test is a coin toss, and per layer the loops would be a read or two long.
  state.candidates.resize(plan.reads.size());
  std::uint32_t* const candidates = state.candidates.data();
  std::size_t count = 0;
  auto list_candidates = [&](auto port_time) {
    for (std::size_t r = plan.read_offsets[from]; r < plan.reads.size(); ++r) {
      const StreamRead& read = plan.reads[r];
      candidates[count] = static_cast<std::uint32_t>(r);
      count += port_time(read) > sim.compute_fs(read.reader);
    }
  };
  if (combine_max) {  // the read's home port alone
    list_candidates([&](const StreamRead& read) {
      return loads[read.reader * m_count + home_of(read, mapping, slowest)];
    });
  } else {  // the one shared path
    list_candidates([&](const StreamRead& read) {
      TimeFs traffic = 0;
      for (std::size_t m = 0; m < m_count; ++m)
        traffic += loads[read.reader * m_count + m];
      return traffic;
    });
  }
  for (std::size_t c = 0; c < count; ++c) {
    const StreamRead& read = plan.reads[candidates[c]];
    const std::size_t l = read.reader;
    const std::size_t home = home_of(read, mapping, slowest);
    std::size_t best_slot = slots, best_issue = l;  // best_issue == l: nowhere to copy
    for (std::size_t slot = slots; slot-- > 0;) {   // slowest first: it wins ties
      const std::size_t stage = plan.staging[slot];
      const std::int64_t room = stage < home ? sim.capacity(stage) - read.bytes : -1;
      const std::int64_t* used = &used_all[slot * n];
      std::size_t issue = l + 1;
      while (issue > read.window_start && used[issue - 1] <= room)
        --issue;
      const bool better = issue < best_issue;
      best_slot = better ? slot : best_slot;
      best_issue = better ? issue : best_issue;
    }
    if (best_issue >= l) continue;
    std::int64_t* used = &used_all[best_slot * n];
    for (std::size_t step = best_issue; step <= l; ++step) {
      used[step] += read.bytes;
      ++held[step];
    }
    const std::size_t stage = plan.staging[best_slot];
    state.copies.push_back(Copy{.reader = static_cast<std::uint32_t>(l),
                                .issue = static_cast<std::uint32_t>(best_issue),
                                .home = static_cast<std::uint8_t>(home),
                                .stage = static_cast<std::uint8_t>(stage),
                                .bytes = read.bytes,
                                .home_fs = read.fs[home],
                                .stage_fs = read.fs[stage],
                                .done = 0});
  }
}

namespace {

// Step 3; kRerun adds the incremental evaluator's log and resynchronisation (streaming.hpp).
// Returns the time saved and the layer it stopped at.
template <bool kRerun>
std::pair<TimeFs, std::size_t> run(const Simulator& sim, const StreamingPlan& plan,
                                   const TimeFs* loads, std::size_t from, DmaState& state,
                                   const TimeFs* v0_fs, TimeFs* layer_fs, TimeFs* log,
                                   std::size_t resync_from) {
  const std::size_t n = sim.num_layers(), m_count = sim.num_memories();
  const bool combine_max = sim.memory_time() == MemoryTimeCombine::max;
  Copy* const copies = state.copies.data();
  const std::size_t copy_count = state.copies.size();
  const std::uint32_t* const held = state.held.data();
  TimeFs saved = 0;
  // The first copy whose reader has not run yet, and from it the first copy not yet complete.
  std::size_t first = static_cast<std::size_t>(
      std::partition_point(copies, copies + copy_count,
                           [&](const Copy& c) { return c.reader < from; }) -
      copies);
  std::size_t pending = first;
  // Only layers where a buffer is held can differ from v0.
  for (std::size_t l = from; l < n; ++l) {
    if constexpr (kRerun) {
      if (l >= resync_from) {
        bool same = true;
        for (std::size_t i = first;
             same && i < copy_count && copies[i].reader <= l + plan.lookahead; ++i) {
          const Copy& c = copies[i];
          same = c.issue >= l || c.done == log[i * plan.log_stride + (l - c.issue)];
        }
        if (same) return {saved, l};
      }
      layer_fs[l] = v0_fs[l];
    }
    if (held[l] == 0) continue;
    if constexpr (kRerun) {
      for (std::size_t i = first; i < copy_count && copies[i].reader <= l + plan.lookahead; ++i) {
        if (copies[i].issue <= l) log[i * plan.log_stride + (l - copies[i].issue)] = copies[i].done;
      }
    }
    // The layer's time in each memory: v0's, or with its staged reads if they are faster. (A
    // pointer, not a copy: a copy of a run-time length is a memcpy whose stores the loads below
    // could not forward from.)
    const TimeFs* load = &loads[l * m_count];
    std::array<TimeFs, kMaxMemories> staged;
    TimeFs t = layer_fs[l];
    std::size_t end = first;
    if (first < copy_count && copies[first].reader == l) {
      for (std::size_t m = 0; m < m_count; ++m)
        staged[m] = load[m];
      for (; end < copy_count && copies[end].reader == l; ++end) {
        const Copy& c = copies[end];
        staged[c.home] -= c.done;
        staged[c.stage] += stage_share(c.done, c.stage_fs, c.home_fs);
      }
      const TimeFs t_staged = sim.layer_time(l, staged.data());
      if (t_staged < t) {
        saved += t - t_staged;
        t = t_staged, load = staged.data();
        layer_fs[l] = t;
      }
    }
    first = end;

    const TimeFs busy = plan.during_overhead ? t : t - sim.overhead_fs();
    std::array<TimeFs, kMaxMemories> idle{};
    TimeFs path_idle = busy;  // memory_time sum: one shared path
    for (std::size_t m = 0; m < m_count; ++m) {
      idle[m] = busy - load[m];
      path_idle -= load[m];
    }
    // Copies from home h can advance while h's port has idle time; none is homed in memory 0.
    std::size_t ports_idle = 0;
    for (std::size_t m = 1; m < m_count; ++m)
      ports_idle += combine_max ? idle[m] > 0 : path_idle > 0;
    pending = std::max(pending, first);
    while (pending < copy_count && copies[pending].done == copies[pending].home_fs)
      ++pending;
    for (std::size_t i = pending;
         ports_idle > 0 && i < copy_count && copies[i].reader <= l + plan.lookahead; ++i) {
      Copy& c = copies[i];
      if (c.issue > l || c.done == c.home_fs) continue;
      TimeFs step = c.home_fs - c.done;
      if (combine_max) {
        if (idle[c.home] == 0) continue;
        step = std::min(step, idle[c.home]);
        // The staging port's idle time binds only when step * stage > idle * home.
        if (static_cast<u128>(step) * static_cast<u128>(c.stage_fs) >
            static_cast<u128>(idle[c.stage]) * static_cast<u128>(c.home_fs)) {
          step = home_within(idle[c.stage], c.stage_fs, c.home_fs);
        }
        idle[c.home] -= step;
        idle[c.stage] -= stage_share(step, c.stage_fs, c.home_fs);
        if (idle[c.home] == 0) --ports_idle;
      } else {
        step = std::min(step, home_within(path_idle, c.stage_fs + c.home_fs, c.home_fs));
        path_idle -= step + stage_share(step, c.stage_fs, c.home_fs);
        if (path_idle == 0) ports_idle = 0;
      }
      c.done += step;
    }
  }
  return {saved, n};
}

}  // namespace

TimeFs run_layers(const Simulator& sim, const StreamingPlan& plan, const TimeFs* loads,
                  std::size_t from, DmaState& state, TimeFs* layer_fs) {
  return run<false>(sim, plan, loads, from, state, layer_fs, layer_fs, nullptr, 0).first;
}

std::size_t rerun_layers(const Simulator& sim, const StreamingPlan& plan, const TimeFs* loads,
                         std::size_t from, DmaState& state, const TimeFs* v0_fs, TimeFs* layer_fs,
                         TimeFs* log, std::size_t resync_from) {
  return run<true>(sim, plan, loads, from, state, v0_fs, layer_fs, log, resync_from).second;
}

void evaluate_streaming(const Simulator& sim, const StreamingPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out) {
  thread_local std::vector<TimeFs> loads;  // per thread, so a warm evaluation allocates nothing
  thread_local DmaState state;
  evaluate_pinned_and_start_dma(sim, plan, mapping, out, loads, state);
  if (!plan.dma_possible()) return;
  plan_copies(sim, plan, mapping, loads.data(), 0, state);
  out.latency_fs -= run_layers(sim, plan, loads.data(), 0, state, out.layer_fs.data());
}

}  // namespace memplace::detail

namespace memplace {

const detail::StreamingPlan& streaming_plan(const Simulator& sim) {
  const auto* plan = dynamic_cast<const detail::StreamingPlan*>(&sim.dynamics_plan());
  if (!plan) {
    throw std::invalid_argument("the " + std::string(sim.dynamics().name()) +
                                " dynamics runs no DMA: it has no streaming plan");
  }
  return *plan;
}

}  // namespace memplace
