#include "experiments/generalization/transfer.hpp"

#include <algorithm>

#include "agents/nn/categorical.hpp"
#include "agents/nn/graph_batch.hpp"
#include "base/errors.hpp"
#include "env/single_step_env.hpp"
#include "model/rectify.hpp"

namespace memplace::experiments {

std::size_t transferred_memory(std::size_t chosen, std::size_t policy_memories,
                               std::size_t target_memories) {
  if (target_memories <= 1) return 0;
  if (chosen + 1 >= policy_memories) return target_memories - 1;
  return std::min(chosen, target_memories - 2);
}

ZeroShotResult evaluate_zero_shot(const nn::Gnn<float>& policy, const ZeroShotTarget& target,
                                  agents::NodeFeatures features) {
  const std::unique_ptr<SingleStepEnv> env =
      SingleStepEnv::make(target.model, target.env_version, target.scoring);
  const Simulator& sim = env->simulator();
  const Observation observation =
      agents::with_node_features(env->reset(0).obs.copy(), sim, features);
  const nn::GraphBatch batch(observation.view());
  const nn::GnnConfig& config = policy.config();
  if (config.input_features != batch.num_features())
    throw InputError("the policy reads " + std::to_string(config.input_features) +
                     " node features; " + target.model.workload + " on " + target.model.hardware +
                     " (" + std::string(version_name(target.env_version)) + ") has " +
                     std::to_string(batch.num_features()) +
                     " (a policy transfers within one env version and node feature set; it was "
                     "given '" +
                     std::string(agents::name_of(features)) + "')");
  if (!config.policy_head) throw InputError("the network has no policy head to place tensors with");
  nn::GnnWorkspace<float> ws;
  policy.forward(batch, ws);
  ZeroShotResult r;
  r.workload = target.model.workload;
  r.hardware = target.model.hardware;
  // The policy's choices over its own memories, then carried over to the target's.
  r.mapping.assign(sim.num_tensors(), 0);
  nn::argmax_rows<float>(ws.logits(), sim.num_tensors(), config.memories, r.mapping);
  for (MemoryIndex& m : r.mapping)
    m = static_cast<MemoryIndex>(transferred_memory(m, config.memories, sim.num_memories()));
  const StepResult step = env->step_mapping(r.mapping);
  r.valid = step.info.valid;
  r.speedup = step.info.valid ? step.info.speedup : 0.0;
  r.latency_fs =
      step.info.latency_fs;  // of the mapping as placed (the env penalizes, not rectifies)
  const Rectified fixed = rectify(sim, r.mapping);
  r.rectified = fixed.mapping;
  r.demotions = fixed.demotions;
  if (fixed.valid)
    r.rectified_speedup = env->context()->speedup(sim.evaluate(r.rectified).latency_fs);
  r.simulator = env->context()->sim;
  return r;
}

}  // namespace memplace::experiments
