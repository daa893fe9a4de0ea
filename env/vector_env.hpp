// N copies of one environment stepped together, in parallel across copies on a pool of persistent
// threads (docs/envs/README.md, "Vector env").
//
//   VectorEnv envs("memplace/sequential/resnet50-v0", 16);
//   VectorResetResult first = envs.reset(42);           // copy i is seeded 42 + i
//   std::vector<std::int64_t> actions(envs.num_envs() * envs.action_size());
//   VectorStepResult r = envs.step(actions);            // r.rewards[i], r.obs[i], ...
//
// Auto-reset is Gymnasium's default "next-step" mode. When copy i terminates (or truncates) at a
// step, that step returns its final observation, reward and terminated/truncated flag. At the
// next call to step(), copy i ignores its action (it is not even validated), resets without
// reseeding, and reports the reset observation and info with reward 0 and both flags false.
//
// The batch is validated before any copy steps: its length, and every copy's action against the
// action space and, for a Discrete space, the copy's action mask. A bad batch throws
// std::invalid_argument naming the lowest bad copy and leaves every copy unchanged. (Should a
// copy's own step() still throw, the exception of the lowest such copy is rethrown after the
// others have stepped; exceptions never leave the parallel region.)
//
// Results are arrays owned by the vector env, views valid until the next reset() or step(); a step
// allocates nothing. Copies are independent and never draw random numbers, so results do not
// depend on the number of threads, nor on which thread steps which copy.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "base/parallel/worker_pool.hpp"
#include "env/env.hpp"

namespace memplace {

struct VectorEnvOptions {
  // Threads for reset() and step(), the calling one included; 0: the OpenMP default
  // (OMP_NUM_THREADS, else one per core), read at each call. Never more threads than copies.
  int num_threads = 0;
};

struct VectorResetResult {
  std::span<const ObservationView> obs;  // one per copy
  std::span<const EnvInfo> infos;
};

struct VectorStepResult {
  std::span<const ObservationView> obs;      // one per copy
  std::span<const double> rewards;           // one per copy
  std::span<const std::uint8_t> terminated;  // 0 or 1 per copy
  std::span<const std::uint8_t> truncated;   // 0 or 1 per copy
  std::span<const EnvInfo> infos;            // one per copy
};

class VectorEnv {
 public:
  // num_envs copies of make(id, options). Throws like make(), or std::invalid_argument for zero
  // copies or an action space that is not Discrete or MultiDiscrete.
  VectorEnv(std::string_view id, std::size_t num_envs, const OptionMap& options = {},
            VectorEnvOptions vector_options = {});
  // num_envs clones of `prototype` (which share its simulator and static data).
  VectorEnv(const Env& prototype, std::size_t num_envs, VectorEnvOptions vector_options = {});

  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;
  VectorEnv(VectorEnv&&) = default;
  VectorEnv& operator=(VectorEnv&&) = default;

  std::size_t num_envs() const { return envs_.size(); }
  const std::string& id() const { return envs_.front()->id(); }
  // The spaces of one copy (all copies have the same).
  const Space& single_observation_space() const { return observation_space_; }
  const Space& single_action_space() const { return action_space_; }
  // int64 entries of one copy's action: 1 (Discrete) or the number of dimensions (MultiDiscrete).
  // step() takes num_envs() * action_size() entries, copy by copy (row-major).
  std::size_t action_size() const { return bounds_.size(); }
  // The threads the next reset() or step() will use.
  int num_threads() const;

  // Resets every copy; with a seed, copy i is reseeded with seed + i.
  VectorResetResult reset(std::optional<std::uint64_t> seed = std::nullopt);
  // Steps every copy (auto-resetting the ones that ended at the previous step). Throws
  // std::invalid_argument before reset() or for a bad batch, with every copy unchanged.
  VectorStepResult step(std::span<const std::int64_t> actions);

  // The results of the last reset() or step().
  VectorStepResult last() const;
  // Whether copy i ended at the last step, so that the next step() resets it.
  bool resets_next_step(std::size_t i) const { return slots_.at(i).pending_reset; }

  Env& env(std::size_t i) { return *envs_.at(i); }
  const Env& env(std::size_t i) const { return *envs_.at(i); }

 private:
  // Throws std::invalid_argument naming copy i if its action is not allowed.
  void check_action(std::size_t i, std::span<const std::int64_t> action) const;
  // The pool for num_threads() threads (made, or remade, when that number changes); null for one.
  WorkerPool* pool();

  std::vector<std::unique_ptr<Env>> envs_;
  VectorEnvOptions vector_options_;
  Space observation_space_;
  Space action_space_;
  std::vector<std::int64_t> bounds_;  // per action entry: values are 0 .. bound - 1
  bool started_ = false;

  // Records copy i's results, by the thread that ran it: its mask into `masks_`, the rest into
  // the result arrays, each written only where it changed.
  void record(std::size_t i, const ObservationView& obs, const EnvInfo& info, double reward,
              bool terminated, bool truncated);

  // What only the thread that runs copy i writes, on a cache line of its own.
  struct alignas(64) Slot {
    bool pending_reset = false;  // it ended at the last step: the next step() resets it
    std::exception_ptr error;    // caught inside the parallel region
  };
  std::vector<Slot> slots_;

  // The results, as the caller sees them, written by the threads in place (EnvPool's batch
  // arrays). Each thread's copies are one contiguous chunk, so threads share at most the line at
  // a chunk's edge, and a value is only written when it changes: lines a step does not change
  // stay in both cores' caches. Writing per-copy slots that the calling thread then gathered
  // moved several lines per copy between the cores at every step (docs/performance.md).
  std::vector<ObservationView> obs_;
  std::vector<double> rewards_;
  std::vector<std::uint8_t> terminated_;
  std::vector<std::uint8_t> truncated_;
  std::vector<EnvInfo> infos_;
  // Every copy's Discrete action mask, mask_width_ bytes each, where obs_[i].action_mask points:
  // the calling thread reads a few contiguous lines instead of a line in every copy's env.
  std::size_t mask_width_ = 0;
  std::vector<std::uint8_t> masks_;

  // Persistent threads: an OpenMP parallel region per step cost as much as 64 sequential copies'
  // steps on 2 cores (docs/performance.md).
  std::unique_ptr<WorkerPool> pool_;
};

}  // namespace memplace
