#include "experiments/transfer.hpp"

#include "agents/nn/categorical.hpp"
#include "agents/nn/graph_batch.hpp"
#include "env/errors.hpp"
#include "env/model/rectify.hpp"
#include "env/single_step_env.hpp"

namespace memplace::experiments {

ZeroShotResult evaluate_zero_shot(const nn::Gnn<float>& policy, const std::string& workload,
                                  const std::string& hardware) {
  const std::unique_ptr<SingleStepEnv> env =
      SingleStepEnv::make_generic({{"workload", workload}, {"hardware", hardware}});
  const Observation observation = env->reset(0).obs.copy();
  const nn::GraphBatch batch(observation.view());
  const Simulator& sim = env->simulator();
  const nn::GnnConfig& config = policy.config();
  if (config.input_features != batch.num_features() || config.memories != sim.num_memories())
    throw InputError("the policy reads " + std::to_string(config.input_features) +
                     " node features over " + std::to_string(config.memories) + " memories; " +
                     workload + " on " + hardware + " has " + std::to_string(batch.num_features()) +
                     " and " + std::to_string(sim.num_memories()));
  if (!config.policy_head) throw InputError("the network has no policy head to place tensors with");
  nn::GnnWorkspace<float> ws;
  policy.forward(batch, ws);
  ZeroShotResult r;
  r.workload = workload;
  r.mapping.assign(sim.num_tensors(), 0);
  nn::argmax_rows<float>(ws.logits(), sim.num_tensors(), sim.num_memories(), r.mapping);
  const std::vector<std::int64_t> action(r.mapping.begin(), r.mapping.end());
  const StepResult step = env->step(action);
  r.valid = step.info.valid;
  r.speedup = step.info.valid ? step.info.speedup : 0.0;
  r.latency_fs =
      step.info.latency_fs;  // of the mapping as placed (the env penalizes, not rectifies)
  const Rectified fixed = rectify(sim, r.mapping);
  r.rectified = fixed.mapping;
  r.demotions = fixed.demotions;
  if (fixed.valid)
    r.rectified_speedup = env->context()->speedup(sim.evaluate(r.rectified).latency_fs);
  return r;
}

}  // namespace memplace::experiments
