#include "model/dynamics/evaluation_kernels.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

#include "model/simulator.hpp"

namespace memplace::detail {

EvaluationPlan build_evaluation_plan(const Simulator& sim) {
  EvaluationPlan p;
  p.layers = sim.num_layers();
  p.memories = sim.num_memories();
  p.blocks = (p.layers + kLanes - 1) / kLanes;
  p.slots = 1;
  for (std::size_t l = 0; l < p.layers; ++l)
    p.slots = std::max(p.slots, sim.in_edges(l).size());

  const std::size_t mc = p.memories;
  const std::size_t lanes = p.blocks * kLanes;
  p.weight_fs.assign(lanes * mc, 0);
  p.output_fs.assign(lanes * mc, 0);
  p.input_fs.assign(lanes * p.slots * mc, 0);
  p.external_fs.assign(lanes, 0);
  p.compute_fs.assign(lanes, 0);
  p.overhead_fs.assign(lanes, 0);
  p.weight_bytes.assign(lanes, 0);
  p.weight_tensor.assign(lanes, 0);
  p.output_tensor.assign(lanes, 0);
  p.input_tensor.assign(lanes * p.slots, 0);
  for (std::size_t l = 0; l < p.layers; ++l) {
    const std::size_t b = l / kLanes;
    const std::size_t lane = l % kLanes;
    for (std::size_t m = 0; m < mc; ++m) {
      p.weight_fs[(b * mc + m) * kLanes + lane] = sim.weight_fs(l, m);
      p.output_fs[(b * mc + m) * kLanes + lane] = sim.output_fs(l, m);
    }
    const std::span<const Simulator::Dependency> deps = sim.in_edges(l);
    for (std::size_t k = 0; k < deps.size(); ++k) {
      p.input_tensor[(b * p.slots + k) * kLanes + lane] =
          static_cast<std::uint32_t>(tensor_id(deps[k].layer, TensorKind::activation));
      for (std::size_t m = 0; m < mc; ++m) {
        p.input_fs[((b * p.slots + k) * mc + m) * kLanes + lane] = sim.read_fs(deps[k].index, m);
      }
    }
    p.external_fs[l] = sim.external_fs(l);
    p.compute_fs[l] = sim.compute_fs(l);
    p.overhead_fs[l] = sim.overhead_fs();
    p.weight_bytes[l] = sim.tensor_bytes(tensor_id(l, TensorKind::weight));
    p.weight_tensor[l] = static_cast<std::uint32_t>(tensor_id(l, TensorKind::weight));
    p.output_tensor[l] = static_cast<std::uint32_t>(tensor_id(l, TensorKind::activation));
  }

  std::vector<std::vector<std::size_t>> dying(p.layers);
  for (std::size_t l = 0; l < p.layers; ++l) {
    dying[sim.live_last(tensor_id(l, TensorKind::activation))].push_back(l);
  }
  for (std::size_t s = 0; s < p.layers; ++s) {
    const std::size_t appear = tensor_id(s, TensorKind::activation);
    p.event_tensor.push_back(static_cast<std::uint32_t>(appear));
    p.event_delta.push_back(sim.tensor_bytes(appear));
    p.event_row.push_back(static_cast<std::uint32_t>(s));
    for (std::size_t l : dying[s]) {
      const std::size_t tensor = tensor_id(l, TensorKind::activation);
      p.event_tensor.push_back(static_cast<std::uint32_t>(tensor));
      p.event_delta.push_back(-sim.tensor_bytes(tensor));
      p.event_row.push_back(static_cast<std::uint32_t>(p.layers));
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Scalar kernel

void evaluate_scalar(const Simulator& sim, const EvaluationPlan& plan,
                     std::span<const MemoryIndex> mapping, Evaluation& out,
                     const StreamingStart* start) {
  const std::size_t mc = sim.num_memories();
  TimeFs* const loads = start ? start->loads : nullptr;
  std::array<TimeFs, kMaxMemories> acc{};
  std::array<std::int64_t, kMaxMemories> pinned{};
  TimeFs total = 0;
  for (std::size_t l = 0; l < sim.num_layers(); ++l) {
    std::fill_n(acc.begin(), mc, 0);
    sim.add_transfer_fs(l, mapping, acc.data());
    if (loads) std::copy_n(acc.begin(), mc, loads + l * mc);
    out.layer_fs[l] = sim.layer_time(l, acc.data());
    total += out.layer_fs[l];
    pinned[mapping[tensor_id(l, TensorKind::weight)]] +=
        sim.tensor_bytes(tensor_id(l, TensorKind::weight));
  }
  std::array<std::int64_t, kMaxMemories> live{};
  std::array<std::int64_t, kMaxMemories> peak{};
  for (std::size_t e = 0; e < plan.event_tensor.size(); ++e) {
    const MemoryIndex m = mapping[plan.event_tensor[e]];
    live[m] += plan.event_delta[e];
    peak[m] = std::max(peak[m], live[m]);
    if (start) {
      std::int64_t* row = start->in_use + plan.event_row[e] * kMaxMemories;
      for (std::size_t k = 0; k < mc; ++k)
        row[k] = pinned[k] + live[k];
    }
  }
  out.latency_fs = total;
  for (std::size_t m = 0; m < mc; ++m)
    out.peak_bytes[m] = pinned[m] + peak[m];
}

// ---------------------------------------------------------------------------------------------
// Vector kernel

namespace {

using V4 = std::int64_t __attribute__((vector_size(32)));  // four layers, or four memories
using V8 = std::int64_t __attribute__((vector_size(64)));  // eight memories

#define MEMPLACE_VECTOR_TARGET __attribute__((target("avx2")))

MEMPLACE_VECTOR_TARGET inline V4 vmax(V4 a, V4 b) {
  return a > b ? a : b;
}

template <typename V>
MEMPLACE_VECTOR_TARGET inline V load(const std::int64_t* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The memory index of the tensor in each lane.
MEMPLACE_VECTOR_TARGET inline V4 gather_memory(const MemoryIndex* map, const std::uint32_t* idx) {
  return V4{map[idx[0]], map[idx[1]], map[idx[2]], map[idx[3]]};
}

// Latency pass: each lane is a layer. acc[m] = the layer's transfer time in memory m, also
// written to `loads` when kLoads (a template parameter, so the pinned evaluation pays nothing).
template <std::size_t M, MemoryTimeCombine C, bool kLoads>
MEMPLACE_VECTOR_TARGET void latency_pass(const EvaluationPlan& p, const MemoryIndex* map,
                                         Evaluation& out, std::array<std::int64_t, M>& pinned,
                                         TimeFs* loads) {
  V4 total{};
  std::array<V4, M> pinned_lanes{};
  const std::size_t full_blocks = p.layers / kLanes;
  for (std::size_t b = 0; b < p.blocks; ++b) {
    V4 w;
    V4 o;
    if (b < full_blocks) {
      // The block's weights and outputs are the 8 consecutive mapping bytes w0 o0 w1 o1 ... o3.
      std::uint64_t bytes;
      std::memcpy(&bytes, map + 2 * kLanes * b, sizeof bytes);
      const V4 all = V4{} + static_cast<std::int64_t>(bytes);
      w = (all >> V4{0, 16, 32, 48}) & 0xff;
      o = (all >> V4{8, 24, 40, 56}) & 0xff;
    } else {
      w = gather_memory(map, &p.weight_tensor[b * kLanes]);
      o = gather_memory(map, &p.output_tensor[b * kLanes]);
    }
    const V4 wbytes = load<V4>(&p.weight_bytes[b * kLanes]);
    std::array<V4, M> acc;
    for (std::size_t m = 0; m < M; ++m) {
      const auto mm = static_cast<std::int64_t>(m);
      acc[m] = ((w == mm) & load<V4>(&p.weight_fs[(b * M + m) * kLanes])) +
               ((o == mm) & load<V4>(&p.output_fs[(b * M + m) * kLanes]));
      pinned_lanes[m] += (w == mm) & wbytes;
    }
    acc[M - 1] += load<V4>(&p.external_fs[b * kLanes]);
    for (std::size_t k = 0; k < p.slots; ++k) {
      const V4 in = gather_memory(map, &p.input_tensor[(b * p.slots + k) * kLanes]);
      for (std::size_t m = 0; m < M; ++m) {
        acc[m] += (in == static_cast<std::int64_t>(m)) &
                  load<V4>(&p.input_fs[((b * p.slots + k) * M + m) * kLanes]);
      }
    }
    const std::size_t first = b * kLanes;
    const std::size_t count = std::min(kLanes, p.layers - first);
    if constexpr (kLoads) {
      for (std::size_t lane = 0; lane < count; ++lane) {
        for (std::size_t m = 0; m < M; ++m)
          loads[(first + lane) * M + m] = acc[m][lane];
      }
    }
    V4 mem = acc[0];
    for (std::size_t m = 1; m < M; ++m) {
      mem = C == MemoryTimeCombine::max ? vmax(mem, acc[m]) : mem + acc[m];
    }
    const V4 t =
        vmax(load<V4>(&p.compute_fs[b * kLanes]), mem) + load<V4>(&p.overhead_fs[b * kLanes]);
    total += t;
    std::memcpy(&out.layer_fs[first], &t, count * sizeof(TimeFs));
  }
  out.latency_fs = total[0] + total[1] + total[2] + total[3];
  for (std::size_t m = 0; m < M; ++m) {
    pinned[m] = pinned_lanes[m][0] + pinned_lanes[m][1] + pinned_lanes[m][2] + pinned_lanes[m][3];
  }
}

// Live-bytes sweep: each lane is a memory. Four peak accumulators break the dependency chain of
// max (events i, i+4, ... update the same one); the maximum of maxima is the same maximum. With
// kInUse, each event also stores the bytes in use (pinned + live) to its row of `in_use`.
template <typename V, std::size_t M, bool kInUse>
MEMPLACE_VECTOR_TARGET void sweep_pass(const EvaluationPlan& p, const MemoryIndex* map,
                                       const std::array<std::int64_t, M>& pinned,
                                       std::array<std::int64_t, M>& peak_out,
                                       std::int64_t* in_use) {
  constexpr std::size_t kWidth = sizeof(V) / sizeof(std::int64_t);
  static_assert(kWidth <= kMaxMemories, "a row of in_use holds one vector");
  std::array<V, M> one_hot{};
  V pinned_lanes{};
  for (std::size_t m = 0; m < M; ++m) {
    one_hot[m][m] = -1;
    pinned_lanes[m] = pinned[m];
  }
  // The plan's arrays in locals: a store to in_use could alias the vectors' own pointers, which
  // the compiler would then reload after every event.
  const std::uint32_t* const tensor = p.event_tensor.data();
  const std::int64_t* const delta = p.event_delta.data();
  const std::uint32_t* const row = p.event_row.data();
  V live{};
  std::array<V, 4> peak{};
  auto store = [&](std::size_t e) {
    if constexpr (kInUse) {
      const V bytes = pinned_lanes + live;
      std::memcpy(in_use + row[e] * kMaxMemories, &bytes, sizeof bytes);
    }
  };
  const std::size_t events = p.event_tensor.size();
  std::size_t e = 0;
  for (; e + 4 <= events; e += 4) {
    for (std::size_t j = 0; j < 4; ++j) {
      live += one_hot[map[tensor[e + j]]] & delta[e + j];
      peak[j] = peak[j] > live ? peak[j] : live;
      store(e + j);
    }
  }
  for (; e < events; ++e) {
    live += one_hot[map[tensor[e]]] & delta[e];
    peak[0] = peak[0] > live ? peak[0] : live;
    store(e);
  }
  V best = peak[0];
  for (std::size_t j = 1; j < 4; ++j)
    best = best > peak[j] ? best : peak[j];
  for (std::size_t m = 0; m < M && m < kWidth; ++m)
    peak_out[m] = best[m];
}

template <std::size_t M, MemoryTimeCombine C>
MEMPLACE_VECTOR_TARGET void vector_kernel(const EvaluationPlan& p, const MemoryIndex* map,
                                          Evaluation& out, const StreamingStart* start) {
  using V = std::conditional_t<M <= 4, V4, V8>;
  std::array<std::int64_t, M> pinned{};
  std::array<std::int64_t, M> peak{};
  if (start != nullptr) {
    latency_pass<M, C, true>(p, map, out, pinned, start->loads);
    sweep_pass<V, M, true>(p, map, pinned, peak, start->in_use);
  } else {
    latency_pass<M, C, false>(p, map, out, pinned, nullptr);
    sweep_pass<V, M, false>(p, map, pinned, peak, nullptr);
  }
  for (std::size_t m = 0; m < M; ++m)
    out.peak_bytes[m] = pinned[m] + peak[m];
}

template <std::size_t M>
void dispatch_combine(const Simulator& sim, const EvaluationPlan& p, const MemoryIndex* map,
                      Evaluation& out, const StreamingStart* start) {
  if (sim.memory_time() == MemoryTimeCombine::max) {
    vector_kernel<M, MemoryTimeCombine::max>(p, map, out, start);
  } else {
    vector_kernel<M, MemoryTimeCombine::sum>(p, map, out, start);
  }
}

}  // namespace

bool evaluate_vector(const Simulator& sim, const EvaluationPlan& plan,
                     std::span<const MemoryIndex> mapping, Evaluation& out,
                     const StreamingStart* start) {
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  if (!has_avx2) return false;
  const MemoryIndex* map = mapping.data();
  switch (plan.memories) {
    case 1:
      dispatch_combine<1>(sim, plan, map, out, start);
      return true;
    case 2:
      dispatch_combine<2>(sim, plan, map, out, start);
      return true;
    case 3:
      dispatch_combine<3>(sim, plan, map, out, start);
      return true;
    case 4:
      dispatch_combine<4>(sim, plan, map, out, start);
      return true;
    case 5:
      dispatch_combine<5>(sim, plan, map, out, start);
      return true;
    case 6:
      dispatch_combine<6>(sim, plan, map, out, start);
      return true;
    case 7:
      dispatch_combine<7>(sim, plan, map, out, start);
      return true;
    case 8:
      dispatch_combine<8>(sim, plan, map, out, start);
      return true;
    default:
      return false;
  }
}

void evaluate_pinned(const Simulator& sim, const EvaluationPlan& plan,
                     std::span<const MemoryIndex> mapping, Evaluation& out,
                     const StreamingStart* start) {
  out.layer_fs.resize(sim.num_layers());
  out.peak_bytes.resize(sim.num_memories());
  out.overflow_bytes.resize(sim.num_memories());
  if (sim.scalar_kernel() || !evaluate_vector(sim, plan, mapping, out, start))
    evaluate_scalar(sim, plan, mapping, out, start);
  out.valid = true;
  for (std::size_t m = 0; m < sim.num_memories(); ++m) {
    out.overflow_bytes[m] = std::max<std::int64_t>(0, out.peak_bytes[m] - sim.capacity(m));
    out.valid = out.valid && out.overflow_bytes[m] == 0;
  }
}

}  // namespace memplace::detail
