// The environment API: Gymnasium semantics in C++ (docs/envs/README.md).
//
//   auto env = memplace::make("memplace/sequential/resnet50-v0");
//   auto [obs, info] = env->reset(42);
//   const auto space = std::get<Discrete>(env->action_space());
//   while (true) {
//     const StepResult r = env->step(space.sample(env->rng(), obs.action_mask));
//     if (r.terminated || r.truncated) break;
//     obs = r.obs;
//   }
//
// Observations are views into the environment (valid until its next reset or step); copy() one
// to keep it. A bad action (wrong length, out of range, masked, or any action after termination)
// throws std::invalid_argument naming what was wrong, and leaves the environment unchanged.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/options.hpp"
#include "base/rng.hpp"
#include "env/observation.hpp"
#include "env/spaces.hpp"
#include "model/simulator.hpp"

namespace memplace {

// What every step reports (Gymnasium's info dict, typed).
struct EnvInfo {
  TimeFs latency_fs = 0;            // of the mapping scored (rectified if it was rectified)
  double speedup = 0;               // compiler latency / latency_fs
  bool valid = true;                // whether the action's mapping fitted, as given
  std::int64_t overflow_bytes = 0;  // by how much it did not (summed over memories)
  bool rectified = false;           // whether the scored mapping was rectified
  int demotions = 0;                // tensors rectification moved one memory slower
  std::size_t step = 0;             // steps taken in this episode
  bool replaced_action = false;     // the step's action was masked and its fallback was taken

  // Key/value view (for logs, JSON and Python): every field as a double.
  std::vector<std::pair<std::string, double>> to_map() const;
};

struct ResetResult {
  ObservationView obs;
  EnvInfo info;
};

struct StepResult {
  ObservationView obs;
  double reward = 0;
  bool terminated = false;
  bool truncated = false;
  EnvInfo info;
};

class Env {
 public:
  virtual ~Env() = default;

  virtual const std::string& id() const = 0;
  virtual Space observation_space() const = 0;
  virtual Space action_space() const = 0;
  // Steps from reset to termination (every episode has this length).
  virtual std::size_t episode_length() const = 0;

  // Starts an episode. With a seed, reseeds rng() (the dynamics themselves are deterministic).
  virtual ResetResult reset(std::optional<std::uint64_t> seed = std::nullopt) = 0;
  virtual StepResult step(std::span<const std::int64_t> action) = 0;
  StepResult step(std::int64_t action) { return step(std::span<const std::int64_t>(&action, 1)); }

  // The current observation (as returned by the last reset or step).
  virtual ObservationView observation() const = 0;
  // An independent copy in the same state (shares the simulator and static data).
  virtual std::unique_ptr<Env> clone() const = 0;

  // The options this environment was made with, by name (defaults included).
  virtual OptionMap options() const = 0;
  virtual const Simulator& simulator() const = 0;

  // A generator for the agent's own sampling, reseeded by reset(seed), like Gymnasium's
  // np_random: the environment itself never draws from it.
  Rng& rng() { return rng_; }

 protected:
  Rng rng_;
};

}  // namespace memplace
