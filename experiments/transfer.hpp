// Zero-shot transfer (EGRL's generalisation experiment): a GNN policy trained on one workload
// places another without retraining. Its policy head reads the single-step observation of any
// graph, so the greedy mapping (argmax per tensor) of the target graph is one forward pass.
#pragma once

#include <string>

#include "agents/nn/gnn.hpp"
#include "env/model/mapping.hpp"
#include "env/model/time.hpp"

namespace memplace::experiments {

struct ZeroShotResult {
  std::string workload;
  Mapping mapping;     // the policy's greedy mapping of the workload
  bool valid = false;  // whether it fits every memory as the policy placed it
  TimeFs latency_fs = 0;
  double speedup = 0;  // over the workload's compiler mapping (0 if invalid)
  // The same mapping rectified (env/model/rectify.hpp: overflowing tensors demoted to slower
  // memories until it fits, as a compiler would), and its speedup; the mapping itself if it was
  // valid.
  Mapping rectified;
  int demotions = 0;
  double rectified_speedup = 0;
};

// The policy's greedy mapping of `workload` on `hardware`, scored as it is and rectified. Throws
// InputError if the workload or the hardware does not load, or if the policy does not fit them
// (another number of node features or memories).
ZeroShotResult evaluate_zero_shot(const nn::Gnn<float>& policy, const std::string& workload,
                                  const std::string& hardware);

}  // namespace memplace::experiments
