// Observations as dicts of numpy arrays (docs/python.md, "Observations").
//
//   nodes        (N, F_static) float32  static node features: one array, shared by every step
//   edge_links   (E, 2) int64           producer -> consumer pairs: shared by every step
//   node_state   (N, F_dynamic) float32 the per-step features (current mapping, ...): a fresh copy
//   action_mask  (K,) int8              a fresh copy, or the previous array if it did not change
//
// Every array is read-only, so sharing is safe. Batched observations (the vector env) have a
// leading num_envs axis; there the static arrays are broadcast views (stride 0), still not copied.
#pragma once

#include <span>

#include "env/observation.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

class ObservationArrays {
 public:
  // Builds the static arrays from any observation of the environment.
  explicit ObservationArrays(const ObservationView& obs);

  py::dict single(const ObservationView& obs);
  py::dict batch(std::span<const ObservationView> obs);

 private:
  py::array nodes_;       // a view of the StaticGraph's features, which it keeps alive
  py::array edge_links_;  // transposed once from the StaticGraph's 2 x E layout
  py::array last_mask_;   // reused while the mask bytes stay the same
};

// The graph's edges as PyTorch Geometric's edge_index: (2, E) int64, sources then targets
// (read-only).
py::array edge_index(const ObservationView& obs);
// An action mask as a writable bool array (MaskablePPO's action_masks()).
py::array_t<bool> bool_mask(std::span<const std::uint8_t> mask);

// EnvInfo as Gymnasium's info dict, and a batch of them as a dict of arrays (vector envs).
py::dict info_dict(const EnvInfo& info);
py::dict info_batch(std::span<const EnvInfo> infos);

}  // namespace memplace::python
