#include "agents/nn/q_moves.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "agents/nn/eigen_views.hpp"
#include "agents/nn/layers.hpp"

namespace memplace::nn {
namespace {

using detail::array;

template <class T>
T* sized(Buffer<T>& buffer, std::size_t size) {
  ensure_size(buffer, size);
  return buffer.data();
}

// Per column h, the k largest values of r (rows x cols) in descending order with their rows:
// value[h * k + j], row[h * k + j]. Insertion keeps it O(rows x cols) when k is small.
template <class T>
void top_rows(const T* r, std::size_t rows, std::size_t cols, std::size_t k, std::vector<T>& value,
              std::vector<std::uint32_t>& row) {
  value.assign(cols * k, T(0));
  row.assign(cols * k, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t filled = std::min(i, k);
    for (std::size_t h = 0; h < cols; ++h) {
      const T v = r[i * cols + h];
      T* tv = value.data() + h * k;
      std::uint32_t* tr = row.data() + h * k;
      if (filled == k && !(v > tv[k - 1])) continue;
      std::size_t j = std::min(filled, k - 1);
      while (j > 0 && tv[j - 1] < v) {
        tv[j] = tv[j - 1];
        tr[j] = tr[j - 1];
        --j;
      }
      tv[j] = v;
      tr[j] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace

template <class T>
void q_single_moves(const Gnn<T>& critic, const GraphBatch& batch, const GnnWorkspace<T>& ws,
                    QSamples samples, std::size_t first, std::size_t count, std::span<T> out,
                    QMovesScratch<T>& s) {
  const GnnConfig& cfg = critic.config();
  if (!cfg.q_head) throw std::invalid_argument("q_single_moves: the critic has no Q head");
  if (samples.size() != ws.samples || ws.rows != batch.num_nodes() || first > samples.size() ||
      count > samples.size() - first)
    throw std::invalid_argument("q_single_moves: samples " + std::to_string(first) + " .. +" +
                                std::to_string(count) + " are not those of the last forward pass");
  const std::size_t H = cfg.hidden, M = cfg.memories;
  std::size_t expected = 0;
  for (std::size_t b = first; b < first + count; ++b)
    expected += 2 * batch.graph_size(samples.graph[b]) * M;
  if (out.size() != expected)
    throw std::invalid_argument("q_single_moves: out has " + std::to_string(out.size()) +
                                " values, expected " + std::to_string(expected));

  const ParameterSet<T>& p = critic.parameters();
  const T* ew = p.tensor("q.weight_action").data();
  const T* ea = p.tensor("q.activation_action").data();
  const T* ep = p.tensor("q.input_action").data();
  const Neighbours producers = batch.producers(), consumers = batch.consumers();
  const T lowest = std::numeric_limits<T>::lowest();

  std::size_t offset = 0;
  for (std::size_t b = first; b < first + count; ++b) {
    const std::size_t base = batch.offsets()[samples.graph[b]];
    const std::size_t n = batch.graph_size(samples.graph[b]);
    const std::uint8_t* a = samples.actions.data() + ws.q_action_offsets[b];
    const T* r = ws.q_relu.data() + static_cast<std::size_t>(ws.q_row_offsets[b]) * H;

    // z before the relu, as the Q head's forward computes it (docs/gnn.md).
    T* z = sized(s.z, n * H);
    for (std::size_t i = 0; i < n; ++i) {
      auto zi = array(z + i * H, H);
      zi = array(ws.q_node.data() + (base + i) * H, H) + array(ew + a[2 * i] * H, H) +
           array(ea + a[2 * i + 1] * H, H);
      const std::size_t np = producers.count(base + i);
      if (np == 0) continue;
      const T scale = T(1) / static_cast<T>(np);
      for (std::uint32_t e = producers.offsets[base + i]; e < producers.offsets[base + i + 1]; ++e)
        zi += array(ep + a[2 * (producers.index[e] - base) + 1] * H, H) * scale;
    }
    T* sum = sized(s.sum, H);
    std::fill(sum, sum + H, T(0));
    for (std::size_t i = 0; i < n; ++i)
      array(sum, H) += array(r + i * H, H);

    // A move changes at most `most` rows, so the largest of the others is among the top most + 1.
    std::size_t most = 1;
    for (std::size_t i = 0; i < n; ++i)
      most = std::max<std::size_t>(most, 1 + consumers.count(base + i));
    const std::size_t k = std::min(n, most + 1);
    top_rows(r, n, H, k, s.top_value, s.top_row);

    // One pooled row per move to another memory (the own memory's Q is the sample's).
    const std::size_t moves = 2 * n * (M - 1);
    T* pooled = sized(s.pooled, std::max<std::size_t>(moves, 1) * 2 * H);
    T* excluded = sized(s.excluded_max, H);
    T* rest = sized(s.moved, 2 * H);  // the column sums without the changed rows
    T* moved = rest + H;              // one changed row after the move
    const T inv_n = T(1) / static_cast<T>(n);
    std::size_t move = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t side = 0; side < 2; ++side) {
        const std::size_t t = 2 * i + side;
        // The rows this tensor's moves change: its layer, and for an output its consumers.
        s.changed.assign(1, static_cast<std::uint32_t>(i));
        bool self_input = false;  // a layer consuming its own output (not in a DAG, but allowed)
        if (side == 1) {
          for (std::uint32_t e = consumers.offsets[base + i]; e < consumers.offsets[base + i + 1];
               ++e) {
            const auto c = static_cast<std::uint32_t>(consumers.index[e] - base);
            if (c == i)
              self_input = true;
            else
              s.changed.push_back(c);
          }
        }
        auto is_changed = [&](std::uint32_t row) {
          return std::find(s.changed.begin(), s.changed.end(), row) != s.changed.end();
        };
        for (std::size_t h = 0; h < H; ++h) {
          excluded[h] = lowest;
          for (std::size_t j = 0; j < k; ++j) {
            if (!is_changed(s.top_row[h * k + j])) {
              excluded[h] = s.top_value[h * k + j];
              break;
            }
          }
        }
        array(rest, H) = array(sum, H);
        for (std::uint32_t c : s.changed)
          array(rest, H) -= array(r + c * H, H);

        const T* table = side == 0 ? ew : ea;
        const std::size_t now = a[t];
        for (std::size_t m = 0; m < M; ++m) {
          if (m == now) continue;
          auto mean = array(pooled + move * 2 * H, H);
          auto max = array(pooled + move * 2 * H + H, H);
          ++move;
          mean = array(rest, H);
          max = array(excluded, H);
          for (std::uint32_t c : s.changed) {
            auto row = array(moved, H);
            row = array(z + c * H, H);
            if (c == i) row += array(table + m * H, H) - array(table + now * H, H);
            if (side == 1 && (c != i || self_input)) {
              const T scale = T(1) / static_cast<T>(producers.count(base + c));
              row += (array(ep + m * H, H) - array(ep + now * H, H)) * scale;
            }
            row = row.cwiseMax(T(0));
            mean += row;
            max = max.cwiseMax(row);
          }
          mean *= inv_n;
        }
      }
    }
    T* hidden = sized(s.hidden, moves * H);
    T* q = sized(s.out, moves);
    if (moves > 0) {
      linear_forward<T>(std::span<T>(hidden, moves * H), std::span<const T>(pooled, moves * 2 * H),
                        p.tensor("q.hidden.weight"), p.tensor("q.hidden.bias"), moves, 2 * H, H);
      tanh_forward<T>(std::span<T>(hidden, moves * H), std::span<const T>(hidden, moves * H));
      linear_forward<T>(std::span<T>(q, moves), std::span<const T>(hidden, moves * H),
                        p.tensor("q.out.weight"), p.tensor("q.out.bias"), moves, H, 1);
    }
    move = 0;
    for (std::size_t t = 0; t < 2 * n; ++t) {
      for (std::size_t m = 0; m < M; ++m)
        out[offset + t * M + m] = m == a[t] ? ws.q()[b] : q[move++];
    }
    offset += 2 * n * M;
  }
}

template void q_single_moves<float>(const Gnn<float>&, const GraphBatch&,
                                    const GnnWorkspace<float>&, QSamples, std::size_t, std::size_t,
                                    std::span<float>, QMovesScratch<float>&);
template void q_single_moves<double>(const Gnn<double>&, const GraphBatch&,
                                     const GnnWorkspace<double>&, QSamples, std::size_t,
                                     std::size_t, std::span<double>, QMovesScratch<double>&);

}  // namespace memplace::nn
