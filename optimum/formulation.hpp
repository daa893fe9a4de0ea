// The cost model as a mixed-integer program (docs/optimum.md), independent of any solver.
//
// Columns: a binary x(t, m) per tensor t and memory m (1 when t lives in m), and a continuous
// T(l) per layer whose memory time can exceed its compute time (its time without the overhead).
// Rows:
//   assignment   Σ_m x(t, m) = 1                                          every tensor
//   layer time   T(l) − Σ_t time(t, l, m) x(t, m) ≥ graph-input time(l, m)  every layer l and
//                memory m (`max`: separate ports), or one row summed over memories (`sum`)
//   capacity     Σ_t bytes(t) x(t, m) over tensors live at step s ≤ capacity(m), at the steps
//                whose live set is not contained in another step's
// T(l) ≥ compute time(l) is its column bound; the objective is Σ_l T(l), plus a constant (every
// layer's overhead and the compute time of layers that never wait for memory).
//
// Every coefficient is the simulator's own integer femtoseconds times 2^-20: a power of two, so
// the scaling is exact in binary floating point and the objective at a mapping's point is exactly
// latency_fs × 2^-20 (tests check this on random mappings).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"

namespace memplace::optimum {

// Solver units per femtosecond (2^-20: about one nanosecond per unit).
inline constexpr double kUnitsPerFs = 1.0 / 1048576.0;
// The bound of a column or row that has none.
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

enum class RowKind : std::uint8_t {
  assignment,
  layer_time,
  capacity,
  // The streaming relaxation's (optimum/streaming_bound.hpp):
  definition,  // an auxiliary column equals an expression
  port,        // a port's idle time covers the copies through it
  staging,     // a read is staged at most as much as it is homed
};

struct MipFormulation {
  // Columns.
  std::vector<double> column_lower;
  std::vector<double> column_upper;
  std::vector<double> objective;
  std::vector<bool> integer;
  // Rows, compressed by row: row r has entries row_start[r] .. row_start[r + 1] - 1.
  std::vector<std::size_t> row_start{0};
  std::vector<int> row_column;
  std::vector<double> row_value;
  std::vector<double> row_lower;
  std::vector<double> row_upper;
  std::vector<RowKind> row_kind;
  // Added to objective × 2^20 to give the latency in femtoseconds.
  TimeFs constant_fs = 0;

  std::size_t num_tensors = 0;
  std::size_t num_memories = 0;
  std::vector<int> layer_time_column;  // per layer; -1 when the layer never waits for memory

  int add_column(double lower, double upper, double objective_coefficient, bool is_integer);
  // Zero coefficients are left out.
  void add_row(RowKind kind, std::span<const int> columns, std::span<const double> values,
               double lower, double upper);

  std::size_t num_columns() const { return objective.size(); }
  std::size_t num_rows() const { return row_lower.size(); }
  int placement_column(std::size_t tensor, std::size_t memory) const {
    return static_cast<int>(tensor * num_memories + memory);
  }

  // The point of a mapping: x one-hot, T(l) the layer's time without its overhead.
  std::vector<double> point(const Simulator& sim, std::span<const MemoryIndex> mapping) const;
  // The mapping of a solution (each tensor in its memory of largest x).
  Mapping mapping_of(std::span<const double> solution) const;
  // Whether `point` satisfies every row and column bound within `tolerance`.
  bool feasible(std::span<const double> point, double tolerance = 0) const;
  // The objective of `point` in femtoseconds, constant included.
  double latency_fs(std::span<const double> point) const;
};

MipFormulation build_formulation(const Simulator& sim);

// One term time(t, l, m) x(t, m) of a layer's traffic in a memory.
struct Term {
  int column;
  TimeFs time_fs;
};
// The terms of layer l's traffic in memory m: its weight, its output and every input it reads
// (graph inputs, which are constant, aside).
std::vector<Term> traffic_terms(const Simulator& sim, const MipFormulation& f, std::size_t l,
                                std::size_t m);

}  // namespace memplace::optimum
