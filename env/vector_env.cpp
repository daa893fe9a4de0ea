#include "env/vector_env.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "env/registry.hpp"

namespace memplace {

namespace {

// Rethrows the exception of the lowest copy that has one, and clears them all.
template <class Slots>
[[noreturn]] void rethrow_first(Slots& slots) {
  std::exception_ptr first;
  for (auto& slot : slots) {
    if (slot.error && !first) first = slot.error;
    slot.error = nullptr;
  }
  std::rethrow_exception(first);
}

// Where the actions are checked: by the calling thread (a check of a few nanoseconds per copy)
// or by the threads, in the parallel region (long actions, whose checks would otherwise be serial).
enum class CheckOn : std::uint8_t { caller, threads };

// Calls check(i) for every copy and then, only if no check threw, run(i) for every copy, on
// `threads` threads. One parallel region per call, with static chunks: which thread runs which
// copy never depends on timing, and a thread steps the copies it has just checked. Exceptions
// are caught per copy into its slot — one escaping a parallel region would terminate the program
// — and the lowest copy's is rethrown at the end. One thread runs plain loops (an OpenMP region
// costs a few hundred nanoseconds even then).
template <class Slots, class Check, class Run>
void check_then_run(Slots& slots, int threads, CheckOn check_on, const Check& check,
                    const Run& run) {
  const std::size_t n = slots.size();
  // Two flags: a thread decides whether to run from `check_failed` alone, which no thread writes
  // once the checks are over; `run_failed` is set while other threads may still be deciding.
  std::atomic<bool> check_failed{false};
  std::atomic<bool> run_failed{false};
  auto guarded = [&](const auto& f, std::size_t i, std::atomic<bool>& failed) {
    try {
      f(i);
    } catch (...) {
      slots[i].error = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  };
  const bool parallel = threads > 1;
  if (!parallel || check_on == CheckOn::caller) {
    for (std::size_t i = 0; i < n && !check_failed.load(std::memory_order_relaxed); ++i)
      guarded(check, i, check_failed);
    if (check_failed.load(std::memory_order_relaxed)) rethrow_first(slots);
  }
  if (!parallel) {
    for (std::size_t i = 0; i < n; ++i)  // every copy, as the threads do, even after a failure
      guarded(run, i, run_failed);
  } else {
    const auto count = static_cast<std::ptrdiff_t>(n);
    const bool check_in_region = check_on == CheckOn::threads;
#pragma omp parallel num_threads(threads)
    {
      if (check_in_region) {
#pragma omp for schedule(static)
        for (std::ptrdiff_t i = 0; i < count; ++i)
          guarded(check, static_cast<std::size_t>(i), check_failed);
      }
      // After the loop's implicit barrier `check_failed` is the same for every thread, so all of
      // them or none reach the next loop, as OpenMP requires.
      if (!check_failed.load(std::memory_order_relaxed)) {
#pragma omp for schedule(static) nowait
        for (std::ptrdiff_t i = 0; i < count; ++i)
          guarded(run, static_cast<std::size_t>(i), run_failed);
      }
    }
  }
  if (check_failed.load(std::memory_order_relaxed) || run_failed.load(std::memory_order_relaxed)) {
    rethrow_first(slots);
  }
}

std::vector<std::unique_ptr<Env>> clones(const Env& prototype, std::size_t n) {
  if (n == 0) {
    throw std::invalid_argument(prototype.id() + ": a vector env needs at least one copy");
  }
  std::vector<std::unique_ptr<Env>> envs;
  envs.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    envs.push_back(prototype.clone());
  return envs;
}

}  // namespace

VectorEnv::VectorEnv(std::string_view id, std::size_t num_envs, const OptionMap& options,
                     VectorEnvOptions vector_options)
    : VectorEnv(*make(id, options), num_envs, vector_options) {}

VectorEnv::VectorEnv(const Env& prototype, std::size_t num_envs, VectorEnvOptions vector_options)
    : envs_(clones(prototype, num_envs)),
      vector_options_(vector_options),
      observation_space_(prototype.observation_space()),
      action_space_(prototype.action_space()) {
  if (const auto* d = std::get_if<Discrete>(&action_space_)) {
    bounds_ = {d->n};
  } else if (const auto* md = std::get_if<MultiDiscrete>(&action_space_)) {
    bounds_ = md->nvec;
  } else {
    throw std::invalid_argument(id() +
                                ": a vector env needs a Discrete or MultiDiscrete action "
                                "space, not " +
                                describe(action_space_));
  }
  slots_.resize(num_envs);
  obs_.resize(num_envs);
  rewards_.resize(num_envs);
  terminated_.resize(num_envs);
  truncated_.resize(num_envs);
  infos_.resize(num_envs);
  for (std::size_t i = 0; i < num_envs; ++i)
    slots_[i].obs = envs_[i]->observation();
  publish();
}

int VectorEnv::num_threads() const {
  const int wanted =
      vector_options_.num_threads > 0 ? vector_options_.num_threads : omp_get_max_threads();
  return static_cast<int>(
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(wanted, 1)), 1, envs_.size()));
}

VectorResetResult VectorEnv::reset(std::optional<std::uint64_t> seed) {
  try {
    check_then_run(
        slots_, num_threads(), CheckOn::caller, [](std::size_t) {},
        [&](std::size_t i) {
          Slot& slot = slots_[i];
          const ResetResult r = envs_[i]->reset(seed ? std::optional(*seed + i) : std::nullopt);
          slot.obs = r.obs;
          slot.info = r.info;
          slot.reward = 0;
          slot.terminated = slot.truncated = slot.pending_reset = false;
        });
  } catch (...) {
    publish();
    throw;
  }
  publish();
  started_ = true;
  return {obs_, infos_};
}

void VectorEnv::publish() {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& slot = slots_[i];
    obs_[i] = slot.obs;
    infos_[i] = slot.info;
    rewards_[i] = slot.reward;
    terminated_[i] = slot.terminated ? 1 : 0;
    truncated_[i] = slot.truncated ? 1 : 0;
  }
}

void VectorEnv::check_action(std::size_t i, std::span<const std::int64_t> action) const {
  // One pass without early exit (vectorisable); the message is only built for a bad action.
  std::size_t out_of_range = 0;  // unsigned: negative values wrap above every bound
  for (std::size_t j = 0; j < action.size(); ++j) {
    out_of_range += static_cast<std::uint64_t>(action[j]) >= static_cast<std::uint64_t>(bounds_[j]);
  }
  auto copy = [&] { return id() + ": copy " + std::to_string(i) + ": "; };
  if (out_of_range != 0) {
    for (std::size_t j = 0; j < action.size(); ++j) {
      if (action[j] >= 0 && action[j] < bounds_[j]) continue;
      throw std::invalid_argument(
          copy() + (action.size() == 1 ? "action " : "action[" + std::to_string(j) + "] = ") +
          std::to_string(action[j]) + " is out of range (0.." + std::to_string(bounds_[j] - 1) +
          ")");
    }
  }
  // A Discrete action must also be allowed by the mask (MultiDiscrete masks are hints).
  const std::span<const std::uint8_t> mask = slots_[i].obs.action_mask;
  if (action.size() == 1 && std::holds_alternative<Discrete>(action_space_) &&
      mask.size() == static_cast<std::size_t>(bounds_[0]) &&
      mask[static_cast<std::size_t>(action[0])] == 0) {
    std::string allowed;
    for (std::size_t m = 0; m < mask.size(); ++m) {
      if (mask[m] != 0) allowed += (allowed.empty() ? "" : ", ") + std::to_string(m);
    }
    throw std::invalid_argument(copy() + "action " + std::to_string(action[0]) +
                                " is masked (allowed: " + (allowed.empty() ? "none" : allowed) +
                                ")");
  }
}

VectorStepResult VectorEnv::step(std::span<const std::int64_t> actions) {
  if (!started_) throw std::invalid_argument(id() + ": vector step() before reset()");
  const std::size_t n = envs_.size();
  if (actions.size() != n * action_size()) {
    throw std::invalid_argument(id() + ": vector step() got " + std::to_string(actions.size()) +
                                " action entries; expected " + std::to_string(n) + " copies x " +
                                std::to_string(action_size()) + " = " +
                                std::to_string(n * action_size()));
  }
  const std::size_t k = action_size();
  // Every action is checked before any copy steps: a one-entry action by this thread, a whole
  // mapping (hundreds of entries) by the threads.
  try {
    check_then_run(
        slots_, num_threads(), k == 1 ? CheckOn::caller : CheckOn::threads,
        [&](std::size_t i) {
          if (!slots_[i].pending_reset) check_action(i, actions.subspan(i * k, k));
        },
        [&](std::size_t i) {
          Slot& slot = slots_[i];
          if (slot.pending_reset) {
            const ResetResult r = envs_[i]->reset();
            slot.obs = r.obs;
            slot.info = r.info;
            slot.reward = 0;
            slot.terminated = slot.truncated = slot.pending_reset = false;
            return;
          }
          const StepResult r = envs_[i]->step(actions.subspan(i * k, k));
          slot.obs = r.obs;
          slot.info = r.info;
          slot.reward = r.reward;
          slot.terminated = r.terminated;
          slot.truncated = r.truncated;
          slot.pending_reset = r.terminated || r.truncated;
        });
  } catch (...) {
    publish();  // copies that stepped before another copy's step() threw
    throw;
  }
  publish();
  return last();
}

VectorStepResult VectorEnv::last() const {
  return {obs_, rewards_, terminated_, truncated_, infos_};
}

}  // namespace memplace
