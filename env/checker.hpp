// The environment checker: holds any Env to the contract of env/env.hpp (docs/envs/README.md), as
// Gymnasium's check_env and OpenSpiel's basic tests do, and lists every problem it finds.
//
//   const std::vector<std::string> problems = memplace::check_env(*env);
//   // empty: the environment conforms
//
// It checks that the spaces are well formed and agree with the observations; that reset(seed)
// twice gives identical observations, info and rng(); that every observation is inside the
// observation space; rewards and info are finite; terminated is false before the last step and
// true exactly after episode_length() steps, truncated always false; that bad actions (wrong
// length, out of range, masked, after termination) throw std::invalid_argument with a message and
// leave the environment unchanged (the episode continues exactly as a clone that never saw them) —
// except masked actions under masked_action=fallback, which must step exactly as their fallback
// action does, with info.replaced_action set;
// and that a fresh environment rejects a step before its first reset, then replays the same seed
// and actions step for step.
//
// It steps the environment it is given (and leaves it mid-use): reset() it before using it again.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "env/env.hpp"

namespace memplace {

struct CheckOptions {
  // Random-agent episodes (actions sampled from env.rng(), masked where there is a mask). The
  // first one also probes bad actions and is replayed in a fresh environment.
  std::size_t episodes = 2;
  std::uint64_t seed = 1;  // episode e is reset with seed + e (not 0: an unseeded Rng's)
  // Makes a fresh environment equal to the checked one, for the determinism check. Unset: made
  // again by id and options() when the id is registered, otherwise a clone taken before the first
  // reset (which cannot catch state hidden outside the object).
  std::function<std::unique_ptr<Env>()> make_fresh;
  // Stops after this many problems (one broken invariant can repeat at every step).
  std::size_t max_problems = 20;
};

std::vector<std::string> check_env(Env& env, const CheckOptions& options = {});

}  // namespace memplace
