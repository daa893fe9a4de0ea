// The Q head's value for every single-tensor move of a sample's action: Q(a with tensor t in
// memory m) for all t and m, as the Q head would compute it (docs/gnn.md), but without a forward
// pass per move. SAC's actor gradient uses it (docs/agents.md, sac, "The actor's gradient": the
// local expectation).
//
// Moving tensor t changes few rows of the Q head's per-node state z: a weight move changes row i
// (its layer), an activation move row i and the rows of i's consumers (through the input
// placement table). So, from the sample's forward pass, a move costs those rows, the mean
// update, a per-column maximum over the unchanged rows (a short walk down the column's top rows)
// and one row of a GEMM through the head's MLP: O(H^2) instead of a Q-head pass, O(N H + H^2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "agents/nn/buffer.hpp"
#include "agents/nn/gnn.hpp"

namespace memplace::nn {

// Reused across calls so that steady-state calls do not allocate.
template <class T>
struct QMovesScratch {
  Buffer<T> z, sum, pooled, hidden, out, moved, excluded_max;
  std::vector<T> top_value;
  std::vector<std::uint32_t> top_row, changed;
};

// For samples first .. first+count-1 of the forward pass `critic` last ran in `ws` (on `batch`
// with `samples`): the moves of each sample's 2n tensors (n = its graph's nodes), concatenated,
// out[offset_b + t * M + m] = Q(action of sample b with tensor t in memory m), offset_b the sum
// of 2 n M over the earlier samples of the range. The entry of each tensor's own memory is the
// sample's Q (ws.q()); the others agree with a full pass to rounding. Throws std::invalid_argument
// on a critic without the Q head, a range outside the samples, or a wrong `out` size.
template <class T>
void q_single_moves(const Gnn<T>& critic, const GraphBatch& batch, const GnnWorkspace<T>& ws,
                    QSamples samples, std::size_t first, std::size_t count, std::span<T> out,
                    QMovesScratch<T>& scratch);

extern template void q_single_moves<float>(const Gnn<float>&, const GraphBatch&,
                                           const GnnWorkspace<float>&, QSamples, std::size_t,
                                           std::size_t, std::span<float>, QMovesScratch<float>&);
extern template void q_single_moves<double>(const Gnn<double>&, const GraphBatch&,
                                            const GnnWorkspace<double>&, QSamples, std::size_t,
                                            std::size_t, std::span<double>, QMovesScratch<double>&);

}  // namespace memplace::nn
