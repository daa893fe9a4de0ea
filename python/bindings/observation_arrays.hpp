// Observations as dicts of numpy arrays (docs/python.md, "Observations"), in one of two layouts.
//
// graph (memplace.make's default):
//   nodes        (N, F_static) float32  static node features: one array, shared by every step
//   edge_links   (E, 2) int64           producer -> consumer pairs: shared by every step
//   node_state   (N, F_dynamic) float32 the per-step features (current mapping, ...): a fresh copy
//   action_mask  (K,) int8              a fresh copy, or the previous array if it did not change
//   occupancy    (G, 32, 32) float32    the malloc env's grids: a fresh copy
// flat (the Gymnasium ids' default: what MLP policies and SB3's checker take): the same arrays as
// 1-D rows — nodes (N*F_static,), node_state (N*F_dynamic,), occupancy (G*32*32,) — and, instead
// of edge_links, edge_index (2*E,) float32: PyTorch Geometric's (2, E), sources then targets,
// exact below 2^24 nodes, so that a concatenation of the dict stays float32.
//
// Every array is read-only, so sharing is safe. Batched observations (the vector env) have a
// leading num_envs axis; there the static arrays are broadcast views (stride 0), still not copied.
#pragma once

#include <span>

#include "env/env.hpp"
#include "env/observation.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

enum class ObservationLayout { graph, flat };
// "graph" or "flat"; ValueError naming the argument otherwise.
ObservationLayout observation_layout(const std::string& name);

class ObservationArrays {
 public:
  // Builds the static arrays from any observation of the environment.
  ObservationArrays(const ObservationView& obs, ObservationLayout layout);

  py::dict single(const ObservationView& obs);
  py::dict batch(std::span<const ObservationView> obs);

 private:
  // The per-step arrays' shapes: `rows` x `columns`, or one row of both in the flat layout.
  std::vector<py::ssize_t> shape(std::size_t rows, std::size_t columns) const;

  bool flat_;
  py::array nodes_;      // a view of the StaticGraph's features, which it keeps alive
  py::array edges_;      // edge_links (E, 2), or edge_index flat: made once from its 2 x E layout
  py::array last_mask_;  // reused while the mask bytes stay the same
};

// The graph's edges as PyTorch Geometric's edge_index: (2, E) int64, sources then targets
// (read-only).
py::array edge_index(const ObservationView& obs);
// An action mask as a writable bool array (MaskablePPO's action_masks()).
py::array_t<bool> bool_mask(std::span<const std::uint8_t> mask);

// EnvInfo as Gymnasium's info dict, and a batch of them as a dict of arrays (vector envs).
// `replaced_action`: whether the env can replace an action (masked_action=fallback). A single
// env's info then has replaced_action = True at a step that did, and no such key otherwise (a key
// every step builds costs 1 % of a step through SB3); a batch has the column.
py::dict info_dict(const EnvInfo& info, bool replaced_action);
py::dict info_batch(std::span<const EnvInfo> infos, bool replaced_action);
// Whether `env` was made with masked_action=fallback.
bool replaces_masked_actions(const Env& env);

}  // namespace memplace::python
