// A first agent: one softmax preference per tensor and memory, learned by REINFORCE
// (docs/tutorial.md; the same agent as python/examples/first_agent.py).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "env/registry.hpp"
#include "model/mapping_io.hpp"
#include "model/rectify.hpp"

using namespace memplace;

int main(int argc, char** argv) {
  const int episodes = argc > 1 ? std::stoi(argv[1]) : 3000;
  // MobileNetV3-Large at batch 32 on the Edge TPU, an instance of the benchmark suite's dev split.
  // invalid=rectify: a mapping that overflows a memory is repaired (as a compiler would) and
  // scored.
  const auto env = make(
      "memplace/single-step-v1",
      {{"workload", "mobilenet-v3-large-b32"}, {"hardware", "edge-tpu"}, {"invalid", "rectify"}});
  const ObservationView first = env->reset(0).obs;
  // Where each tensor can fit at all (row-major: tensor, then memory).
  const std::vector<std::uint8_t> fits(first.action_mask.begin(), first.action_mask.end());
  const std::size_t memories = env->simulator().num_memories();
  const std::size_t tensors = fits.size() / memories;
  std::vector<double> theta(tensors * memories, 0.0), probs(theta.size());
  std::vector<std::int64_t> mapping(tensors);
  Rng rng(0);
  double baseline = 0, learning_rate = 0.5, best_speedup = 0;
  Mapping best;
  for (int episode = 0; episode < episodes; ++episode) {
    for (std::size_t t = 0; t < tensors; ++t) {  // softmax over the memories t fits in, and a draw
      double* p = &probs[t * memories];
      const double* th = &theta[t * memories];
      double top = -INFINITY, sum = 0;
      for (std::size_t m = 0; m < memories; ++m)
        if (fits[t * memories + m]) top = std::max(top, th[m]);
      for (std::size_t m = 0; m < memories; ++m)
        sum += p[m] = fits[t * memories + m] ? std::exp(th[m] - top) : 0.0;
      double u = rng.uniform01() * sum;
      for (std::size_t m = 0; m < memories; ++m) {
        if (p[m] == 0) continue;
        mapping[t] = static_cast<std::int64_t>(m);
        if ((u -= p[m]) < 0) break;
      }
      for (std::size_t m = 0; m < memories; ++m)
        p[m] /= sum;
    }
    env->reset();
    const StepResult r = env->step(mapping);
    if (r.info.speedup > best_speedup) {
      best_speedup = r.info.speedup;
      best.assign(mapping.begin(), mapping.end());
    }
    // REINFORCE: grad log p(mapping) = onehot(mapping) - probs, per tensor.
    for (std::size_t i = 0; i < theta.size(); ++i) {
      const double onehot = mapping[i / memories] == static_cast<std::int64_t>(i % memories);
      if (fits[i]) theta[i] += learning_rate * (r.reward - baseline) * (onehot - probs[i]);
    }
    baseline += 0.05 * (r.reward - baseline);
    if ((episode + 1) % (episodes / 10) == 0) {
      std::printf("episode %5d  reward %+.4f  speedup %.4f  best %.4f\n", episode + 1, r.reward,
                  r.info.speedup, best_speedup);
    }
  }
  // The best mapping, repaired as the env scored it, saved for `memplace evaluate` to re-check.
  const Mapping rectified = rectify(env->simulator(), best).mapping;
  const Evaluation e = env->simulator().evaluate(rectified);
  save_mapping("first-agent-mapping.yaml", env->simulator(), rectified,
               RecordedResult{e.latency_fs, e.valid});
  std::printf("best speedup over the compiler: %.4f (first-agent-mapping.yaml)\n", best_speedup);
}
