// Zero-shot transfer (EGRL's generalisation experiment): a GNN policy trained on one workload and
// hardware model places another without retraining. Its policy head reads the single-step
// observation of any graph, so the greedy mapping (argmax per tensor) of the target graph is one
// forward pass; on a chip with another number of memories its choices are carried over by rank
// (transferred_memory).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "agents/nn/gnn.hpp"
#include "agents/training/train_config.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"
#include "model/simulator.hpp"

namespace memplace::experiments {

// The memory of a chip with `target_memories` that a policy's choice of memory `chosen` (of
// `policy_memories`, fastest first) stands for: the slowest stays the slowest (where tensors
// live when nothing faster holds them), and the faster ones keep their rank, clipped to the
// target's faster memories (NNP-I's SRAM and LLC both become a 2-memory chip's SRAM).
std::size_t transferred_memory(std::size_t chosen, std::size_t policy_memories,
                               std::size_t target_memories);

// What a policy is placed on: a model (its workload and hardware: shipped names or files) at an
// env version, scored as a run's single-step env scores its proposals.
using ZeroShotTarget = agents::ScoringEnv;

struct ZeroShotResult {
  std::string workload;
  std::string hardware;
  Mapping mapping;     // the policy's greedy mapping of the workload
  bool valid = false;  // whether it fits every memory as the policy placed it
  TimeFs latency_fs = 0;
  double speedup = 0;  // over the target's compiler mapping (0 if invalid)
  // The same mapping rectified (model/rectify.hpp: overflowing tensors demoted to slower
  // memories until it fits, as a compiler would), and its speedup; the mapping itself if it was
  // valid.
  Mapping rectified;
  int demotions = 0;
  double rectified_speedup = 0;
  std::shared_ptr<const Simulator> simulator;  // the target's, as it scored the mappings
};

// The policy's greedy mapping of the target, scored as it is and rectified. Throws InputError if
// the workload or the hardware does not load, or if the policy reads another number of node
// features than the target's observation has (another env version).
// `features`: the node features the policy reads (its spec's; agents/node_features.hpp).
ZeroShotResult evaluate_zero_shot(
    const nn::Gnn<float>& policy, const ZeroShotTarget& target,
    agents::NodeFeatures features = agents::NodeFeatures::observation);

}  // namespace memplace::experiments
