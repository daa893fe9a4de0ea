#include "optimum/formulation.hpp"

#include <algorithm>
#include <cmath>

namespace memplace::optimum {

namespace {

TimeFs graph_input_fs(const Simulator& sim, std::size_t l, std::size_t m) {
  return m == sim.slowest() ? sim.external_fs(l) : 0;
}

// The largest time port m of layer l can take under any mapping: all its tensors there.
TimeFs worst_port_fs(const Simulator& sim, const MipFormulation& f, std::size_t l, std::size_t m) {
  TimeFs port = graph_input_fs(sim, l, m);
  for (const Term& t : traffic_terms(sim, f, l, m))
    port += t.time_fs;
  return port;
}

// The largest memory time layer l can have under any mapping: the worst port (`max`), or every
// tensor in the memory it is slowest to move from (`sum`).
TimeFs worst_memory_fs(const Simulator& sim, const MipFormulation& f, std::size_t l) {
  TimeFs worst = 0;
  if (sim.memory_time() == MemoryTimeCombine::max) {
    for (std::size_t m = 0; m < sim.num_memories(); ++m)
      worst = std::max(worst, worst_port_fs(sim, f, l, m));
    return worst;
  }
  std::vector<TimeFs> slowest(traffic_terms(sim, f, l, 0).size(), 0);
  for (std::size_t m = 0; m < sim.num_memories(); ++m) {
    const std::vector<Term> terms = traffic_terms(sim, f, l, m);
    for (std::size_t i = 0; i < terms.size(); ++i)
      slowest[i] = std::max(slowest[i], terms[i].time_fs);
    worst += graph_input_fs(sim, l, m);
  }
  for (const TimeFs t : slowest)
    worst += t;
  return worst;
}

// Steps whose set of live activations is not contained in another step's: sweeping the
// schedule, the live set at an end of some live range is maximal when a range started since the
// previous end (the maximal cliques of an interval graph). Capacity rows at other steps are implied
// by these, since all bytes are non-negative.
std::vector<std::size_t> maximal_live_steps(const Simulator& sim) {
  const std::size_t n = sim.num_layers();
  std::vector<bool> starts(n, false), ends(n, false);
  for (std::size_t l = 0; l < n; ++l) {
    const std::size_t a = tensor_id(l, TensorKind::activation);
    if (sim.tensor_bytes(a) == 0) continue;
    starts[sim.live_first(a)] = true;
    ends[sim.live_last(a)] = true;
  }
  std::vector<std::size_t> steps;
  bool started = false;
  for (std::size_t s = 0; s < n; ++s) {
    started = started || starts[s];
    if (ends[s] && started) {
      steps.push_back(s);
      started = false;
    }
  }
  if (steps.empty() && n > 0) steps.push_back(0);  // no activation: the weights alone
  return steps;
}

void add_capacity_rows(const Simulator& sim, MipFormulation& f) {
  for (const std::size_t s : maximal_live_steps(sim)) {
    for (std::size_t m = 0; m < sim.num_memories(); ++m) {
      std::vector<int> columns;
      std::vector<double> values;
      std::int64_t total = 0;
      for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
        const std::int64_t bytes = sim.tensor_bytes(t);
        if (bytes == 0 || sim.live_first(t) > s || sim.live_last(t) < s) continue;
        columns.push_back(f.placement_column(t, m));
        values.push_back(static_cast<double>(bytes));
        total += bytes;
      }
      if (total <= sim.capacity(m)) continue;  // can never overflow
      f.add_row(RowKind::capacity, columns, values, -kInfinity,
                static_cast<double>(sim.capacity(m)));
    }
  }
}

void add_layer_time_rows(const Simulator& sim, MipFormulation& f) {
  for (std::size_t l = 0; l < sim.num_layers(); ++l) {
    f.constant_fs += sim.overhead_fs();
    if (worst_memory_fs(sim, f, l) <= sim.compute_fs(l)) {
      f.constant_fs += sim.compute_fs(l);  // compute-bound under every mapping
      continue;
    }
    const int time =
        f.add_column(static_cast<double>(sim.compute_fs(l)) * kUnitsPerFs, kInfinity, 1.0, false);
    f.layer_time_column[l] = time;
    std::vector<int> columns{time};
    std::vector<double> values{1.0};
    TimeFs rhs = 0;
    for (std::size_t m = 0; m < sim.num_memories(); ++m) {
      for (const Term& t : traffic_terms(sim, f, l, m)) {
        columns.push_back(t.column);
        values.push_back(-static_cast<double>(t.time_fs) * kUnitsPerFs);
      }
      rhs += graph_input_fs(sim, l, m);
      if (sim.memory_time() == MemoryTimeCombine::max) {
        // A port that cannot outlast the compute time is implied by T(l)'s lower bound.
        if (worst_port_fs(sim, f, l, m) > sim.compute_fs(l)) {
          f.add_row(RowKind::layer_time, columns, values, static_cast<double>(rhs) * kUnitsPerFs,
                    kInfinity);
        }
        columns.resize(1);
        values.resize(1);
        rhs = 0;
      }
    }
    if (sim.memory_time() == MemoryTimeCombine::sum) {
      f.add_row(RowKind::layer_time, columns, values, static_cast<double>(rhs) * kUnitsPerFs,
                kInfinity);
    }
  }
}

}  // namespace

std::vector<Term> traffic_terms(const Simulator& sim, const MipFormulation& f, std::size_t l,
                                std::size_t m) {
  std::vector<Term> terms;
  terms.push_back({f.placement_column(tensor_id(l, TensorKind::weight), m), sim.weight_fs(l, m)});
  terms.push_back(
      {f.placement_column(tensor_id(l, TensorKind::activation), m), sim.output_fs(l, m)});
  for (const Simulator::Dependency& d : sim.in_edges(l)) {
    terms.push_back({f.placement_column(tensor_id(d.layer, TensorKind::activation), m),
                     sim.read_fs(d.index, m)});
  }
  return terms;
}

int MipFormulation::add_column(double lower, double upper, double objective_coefficient,
                               bool is_integer) {
  column_lower.push_back(lower);
  column_upper.push_back(upper);
  objective.push_back(objective_coefficient);
  integer.push_back(is_integer);
  return static_cast<int>(objective.size() - 1);
}

void MipFormulation::add_row(RowKind kind, std::span<const int> columns,
                             std::span<const double> values, double lower, double upper) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (values[i] == 0) continue;
    row_column.push_back(columns[i]);
    row_value.push_back(values[i]);
  }
  row_start.push_back(row_column.size());
  row_lower.push_back(lower);
  row_upper.push_back(upper);
  row_kind.push_back(kind);
}

MipFormulation build_formulation(const Simulator& sim) {
  MipFormulation f;
  f.num_tensors = sim.num_tensors();
  f.num_memories = sim.num_memories();
  f.layer_time_column.assign(sim.num_layers(), -1);
  // A tensor larger than a memory is kept out of it by the capacity rows alone: CBC's
  // preprocessing fixes those columns itself, and fixing them here made its search slower
  // (bert-base under `sum`: not proven in 600 s instead of 90 s; docs/optimum.md).
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    for (std::size_t m = 0; m < sim.num_memories(); ++m)
      f.add_column(0.0, 1.0, 0.0, true);
  }
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    std::vector<int> columns;
    for (std::size_t m = 0; m < sim.num_memories(); ++m)
      columns.push_back(f.placement_column(t, m));
    const std::vector<double> ones(columns.size(), 1.0);
    f.add_row(RowKind::assignment, columns, ones, 1.0, 1.0);
  }
  add_layer_time_rows(sim, f);
  add_capacity_rows(sim, f);
  return f;
}

std::vector<double> MipFormulation::point(const Simulator& sim,
                                          std::span<const MemoryIndex> mapping) const {
  sim.check_mapping(mapping);
  std::vector<double> x(num_columns(), 0.0);
  for (std::size_t t = 0; t < num_tensors; ++t)
    x[static_cast<std::size_t>(placement_column(t, mapping[t]))] = 1.0;
  const Evaluation eval = sim.evaluate(mapping);
  for (std::size_t l = 0; l < layer_time_column.size(); ++l) {
    if (layer_time_column[l] < 0) continue;
    x[static_cast<std::size_t>(layer_time_column[l])] =
        static_cast<double>(eval.layer_fs[l] - sim.overhead_fs()) * kUnitsPerFs;
  }
  return x;
}

Mapping MipFormulation::mapping_of(std::span<const double> solution) const {
  Mapping mapping(num_tensors, 0);
  for (std::size_t t = 0; t < num_tensors; ++t) {
    double best = -1;
    for (std::size_t m = 0; m < num_memories; ++m) {
      const double v = solution[static_cast<std::size_t>(placement_column(t, m))];
      if (v > best) {
        best = v;
        mapping[t] = static_cast<MemoryIndex>(m);
      }
    }
  }
  return mapping;
}

bool MipFormulation::feasible(std::span<const double> x, double tolerance) const {
  for (std::size_t c = 0; c < num_columns(); ++c) {
    if (x[c] < column_lower[c] - tolerance || x[c] > column_upper[c] + tolerance) return false;
  }
  for (std::size_t r = 0; r < num_rows(); ++r) {
    double activity = 0;
    for (std::size_t i = row_start[r]; i < row_start[r + 1]; ++i)
      activity += row_value[i] * x[static_cast<std::size_t>(row_column[i])];
    if (activity < row_lower[r] - tolerance || activity > row_upper[r] + tolerance) return false;
  }
  return true;
}

double MipFormulation::latency_fs(std::span<const double> x) const {
  double units = 0;
  for (std::size_t c = 0; c < num_columns(); ++c)
    units += objective[c] * x[c];
  return units / kUnitsPerFs + static_cast<double>(constant_fs);
}

}  // namespace memplace::optimum
