#include "optimum/streaming_bound.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/dynamics/streaming.hpp"
#include "optimum/clp.hpp"
#include "optimum/formulation.hpp"

namespace memplace::optimum {
namespace {

constexpr double kSafety = 1e-6;  // relative, against Clp's tolerances

// One y(r, h, s) column, and its progress columns z(r, h, s, l) for the layers of its window
// (ws .. reader - 1, consecutive columns from `first_progress`).
struct Share {
  std::size_t read;
  std::size_t home;
  std::size_t stage;
  int column;
  int first_progress = -1;
};

// Builds the rows of one linear expression with a constant: sum of terms + constant.
struct Expression {
  std::vector<int> columns;
  std::vector<double> values;
  double constant = 0;

  void add(int column, double value) {
    columns.push_back(column);
    values.push_back(value);
  }
  void clear() {
    columns.clear();
    values.clear();
    constant = 0;
  }
};

class Relaxation {
 public:
  Relaxation(const Simulator& sim, std::span<const MemoryIndex> fixed, bool integral)
      : sim_(sim),
        plan_(streaming_plan(sim)),
        n_(sim.num_layers()),
        memories_(sim.num_memories()),
        ports_(sim.memory_time() == MemoryTimeCombine::max ? memories_ : 1),
        overhead_(plan_.during_overhead ? static_cast<double>(sim.overhead_fs()) * kUnitsPerFs
                                        : 0.0) {
    f_.num_tensors = sim.num_tensors();
    f_.num_memories = memories_;
    f_.layer_time_column.assign(n_, -1);
    add_placements(fixed, integral);
    add_layer_times();
    add_shares();
    add_idle_rows();
    add_port_rows();
    add_capacity_rows();
  }

  MipFormulation take() { return std::move(f_); }

 private:
  double units(TimeFs fs) const { return static_cast<double>(fs) * kUnitsPerFs; }

  void add_placements(std::span<const MemoryIndex> fixed, bool integral) {
    for (std::size_t t = 0; t < sim_.num_tensors(); ++t) {
      for (std::size_t m = 0; m < memories_; ++m) {
        const double pinned = fixed.empty() ? -1 : fixed[t] == m ? 1 : 0;
        f_.add_column(pinned < 0 ? 0 : pinned, pinned < 0 ? 1 : pinned, 0, integral);
      }
      std::vector<int> columns;
      for (std::size_t m = 0; m < memories_; ++m)
        columns.push_back(f_.placement_column(t, m));
      const std::vector<double> ones(memories_, 1.0);
      f_.add_row(RowKind::assignment, columns, ones, 1, 1);
    }
  }

  void add_layer_times() {
    for (std::size_t l = 0; l < n_; ++l) {
      f_.layer_time_column[l] = f_.add_column(units(sim_.compute_fs(l)), kInfinity, 1, false);
      f_.constant_fs += sim_.overhead_fs();
    }
  }

  // y columns, by reading layer, and their staging rows.
  void add_shares() {
    share_offsets_.assign(n_ + 1, 0);
    for (std::size_t l = 0; l < n_; ++l) {
      for (std::size_t r = plan_.read_offsets[l]; r < plan_.read_offsets[l + 1]; ++r) {
        const detail::StreamRead& read = plan_.reads[r];
        const bool graph_input = read.tensor == detail::StreamRead::kGraphInput;
        for (std::size_t h = graph_input ? memories_ - 1 : 1; h < memories_; ++h) {
          std::vector<int> columns;
          for (const std::size_t s : plan_.staging) {
            if (s >= h) continue;
            columns.push_back(f_.add_column(0, 1, 0, false));
            shares_.push_back({r, h, s, columns.back()});
          }
          if (columns.empty()) continue;
          for (std::size_t i = shares_.size() - columns.size(); i < shares_.size(); ++i)
            add_progress(shares_[i], l);
          std::vector<double> values(columns.size(), 1.0);
          if (!graph_input) {
            columns.push_back(f_.placement_column(read.tensor, h));
            values.push_back(-1.0);
          }
          f_.add_row(RowKind::staging, columns, values, -kInfinity, graph_input ? 1.0 : 0.0);
        }
      }
      share_offsets_[l + 1] = shares_.size();
    }
  }

  // z(l) for l in the window, and y = sum of them.
  void add_progress(Share& sh, std::size_t reader) {
    const std::size_t start = plan_.reads[sh.read].window_start;
    std::vector<int> columns{sh.column};
    std::vector<double> values{-1.0};
    for (std::size_t l = start; l < reader; ++l) {
      const int z = f_.add_column(0, 1, 0, false);
      if (l == start) sh.first_progress = z;
      columns.push_back(z);
      values.push_back(1.0);
    }
    f_.add_row(RowKind::definition, columns, values, 0, 0);
  }

  std::span<const Share> shares_of(std::size_t layer) const {
    return std::span(shares_).subspan(share_offsets_[layer],
                                      share_offsets_[layer + 1] - share_offsets_[layer]);
  }

  // The DMA work of a share on port p, per unit of y.
  double work(const Share& sh, std::size_t p) const {
    const detail::StreamRead& read = plan_.reads[sh.read];
    if (ports_ == 1) return units(read.fs[sh.home] + read.fs[sh.stage]);
    return p == sh.home ? units(read.fs[sh.home]) : p == sh.stage ? units(read.fs[sh.stage]) : 0;
  }

  // Adds port p's load in layer l to `e`: every tensor's traffic from the memories of the port,
  // graph inputs in the slowest, staged shares moved from their home's port to the staging one's.
  void add_load(std::size_t l, std::size_t p, Expression& e) const {
    for (std::size_t m = 0; m < memories_; ++m) {
      if (ports_ != 1 && m != p) continue;
      for (const Term& t : traffic_terms(sim_, f_, l, m))
        e.add(t.column, units(t.time_fs));
      if (m == memories_ - 1) e.constant += units(sim_.external_fs(l));
    }
    for (const Share& sh : shares_of(l)) {
      const detail::StreamRead& read = plan_.reads[sh.read];
      if (ports_ == 1 || p == sh.home) e.add(sh.column, -units(read.fs[sh.home]));
      if (ports_ == 1 || p == sh.stage) e.add(sh.column, units(read.fs[sh.stage]));
    }
  }

  void add_idle_rows() {
    idle_.assign(n_ * ports_, -1);
    Expression e;
    for (std::size_t l = 0; l < n_; ++l) {
      for (std::size_t p = 0; p < ports_; ++p) {
        idle_[l * ports_ + p] = f_.add_column(0, kInfinity, 0, false);
        // I - T + load = 0
        e.clear();
        e.add(idle_[l * ports_ + p], 1);
        e.add(f_.layer_time_column[l], -1);
        add_load(l, p, e);
        f_.add_row(RowKind::definition, e.columns, e.values, -e.constant, -e.constant);
      }
    }
  }

  // In each layer, the DMA work through a port fits in its idle time (and the overhead, if the
  // DMA runs through it): the copies in flight are those read within `lookahead` layers.
  void add_port_rows() {
    Expression e;
    for (std::size_t l = 0; l + 1 < n_; ++l) {
      for (std::size_t p = 0; p < ports_; ++p) {
        e.clear();
        e.add(idle_[l * ports_ + p], -1);
        for (std::size_t k = l + 1; k < n_ && k <= l + plan_.lookahead; ++k) {
          for (const Share& sh : shares_of(k)) {
            const std::size_t start = plan_.reads[sh.read].window_start;
            if (start > l) continue;
            e.add(sh.first_progress + static_cast<int>(l - start), work(sh, p));
          }
        }
        if (e.columns.size() > 1)
          f_.add_row(RowKind::port, e.columns, e.values, -kInfinity, overhead_);
      }
    }
  }

  void add_capacity_rows() {
    Expression e;
    for (std::size_t m = 0; m < memories_; ++m) {
      const double capacity = static_cast<double>(sim_.capacity(m));
      std::int64_t most = 0;  // everything at once: if it fits, no row is needed
      for (std::size_t t = 0; t < sim_.num_tensors(); ++t)
        most += sim_.tensor_bytes(t);
      for (const Share& sh : shares_)
        most += sh.stage == m ? 2 * plan_.reads[sh.read].bytes : 0;
      if (most <= sim_.capacity(m)) continue;
      // W(m) = the weights' share of the capacity.
      e.clear();
      const int weights = f_.add_column(0, kInfinity, 0, false);
      e.add(weights, -1);
      for (std::size_t l = 0; l < n_; ++l) {
        const std::size_t w = tensor_id(l, TensorKind::weight);
        e.add(f_.placement_column(w, m), static_cast<double>(sim_.tensor_bytes(w)) / capacity);
      }
      f_.add_row(RowKind::definition, e.columns, e.values, 0, 0);
      for (std::size_t s = 0; s < n_; ++s) {
        e.clear();
        e.add(weights, 1);
        for (std::size_t l = 0; l <= s; ++l) {
          const std::size_t a = tensor_id(l, TensorKind::activation);
          if (sim_.tensor_bytes(a) == 0 || sim_.live_last(a) < s || sim_.live_first(a) > s)
            continue;
          e.add(f_.placement_column(a, m), static_cast<double>(sim_.tensor_bytes(a)) / capacity);
        }
        // A buffer is whole from its issue to its reader's end: at least the share copied so far.
        for (const Share& sh : shares_of(s)) {
          if (sh.stage == m)
            e.add(sh.column, static_cast<double>(plan_.reads[sh.read].bytes) / capacity);
        }
        for (std::size_t k = s + 1; k < n_ && k <= s + plan_.lookahead; ++k) {
          for (const Share& sh : shares_of(k)) {
            const std::size_t start = plan_.reads[sh.read].window_start;
            if (sh.stage != m || start > s) continue;
            const double share = static_cast<double>(plan_.reads[sh.read].bytes) / capacity;
            for (std::size_t j = start; j <= s; ++j)
              e.add(sh.first_progress + static_cast<int>(j - start), share);
          }
        }
        f_.add_row(RowKind::capacity, e.columns, e.values, -kInfinity, 1);
      }
    }
  }

  const Simulator& sim_;
  const detail::StreamingPlan& plan_;
  std::size_t n_, memories_, ports_;
  double overhead_;  // solver units of idle time the overhead adds per layer (0 if it does not)
  MipFormulation f_;
  std::vector<Share> shares_;
  std::vector<std::size_t> share_offsets_;  // by reading layer
  std::vector<int> idle_;                   // layer x port
};

TimeFs bound(const Simulator& sim, std::span<const MemoryIndex> fixed) {
  const double fs = solve_relaxation(build_streaming_relaxation(sim, fixed));
  return static_cast<TimeFs>(std::floor(fs * (1 - kSafety)));
}

}  // namespace

MipFormulation build_streaming_relaxation(const Simulator& sim, std::span<const MemoryIndex> fixed,
                                          bool integral) {
  // A bound for v2 too: every v2-valid mapping is v1-valid, and no slower under v1.
  if (!has_dma(sim.dynamics())) {
    throw std::invalid_argument("the streaming bound needs a dynamics that runs a DMA, not " +
                                std::string(sim.dynamics().name()));
  }
  return Relaxation(sim, fixed, integral).take();
}

TimeFs streaming_bound_fs(const Simulator& sim) {
  return bound(sim, {});
}

TimeFs streaming_bound_fs(const Simulator& sim, std::span<const MemoryIndex> mapping) {
  sim.check_mapping(mapping);
  return bound(sim, mapping);
}

}  // namespace memplace::optimum
