#include "env/vector_env.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <type_traits>

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
// or by the pool's threads (long actions, whose checks would otherwise be serial).
enum class CheckOn : std::uint8_t { caller, threads };

// Calls check(i) for every copy and then, only if no check threw, run(i) for every copy, on the
// pool's threads (without a pool, on this one). Exceptions are caught per copy into its slot —
// one escaping a worker thread would terminate the program — and the lowest copy's is rethrown
// at the end, so which thread ran which copy never shows.
template <class Slots, class Check, class Run>
void check_then_run(Slots& slots, WorkerPool* pool, CheckOn check_on, const Check& check,
                    const Run& run) {
  const std::size_t n = slots.size();
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
  if (pool == nullptr || check_on == CheckOn::caller) {
    for (std::size_t i = 0; i < n && !check_failed.load(std::memory_order_relaxed); ++i)
      guarded(check, i, check_failed);
  } else {
    pool->run(n, [&](std::size_t i) { guarded(check, i, check_failed); });
  }
  if (check_failed.load(std::memory_order_relaxed)) rethrow_first(slots);
  if (pool == nullptr) {
    for (std::size_t i = 0; i < n; ++i)  // every copy, as the pool does, even after a failure
      guarded(run, i, run_failed);
  } else {
    pool->run(n, [&](std::size_t i) { guarded(run, i, run_failed); });
  }
  if (run_failed.load(std::memory_order_relaxed)) rethrow_first(slots);
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
  // A Discrete action's mask (a few bytes) is gathered; a MultiDiscrete one (hints, one entry per
  // value of every dimension: kilobytes) stays where the env keeps it.
  if (bounds_.size() == 1) mask_width_ = envs_.front()->observation().action_mask.size();
  masks_.resize(num_envs * mask_width_);
  for (std::size_t i = 0; i < num_envs; ++i)
    record(i, envs_[i]->observation(), EnvInfo{}, 0, false, false);
}

int VectorEnv::num_threads() const {
  const int wanted =
      vector_options_.num_threads > 0 ? vector_options_.num_threads : omp_get_max_threads();
  return static_cast<int>(
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(wanted, 1)), 1, envs_.size()));
}

WorkerPool* VectorEnv::pool() {
  const int threads = num_threads();
  if (threads == 1) return nullptr;
  if (!pool_ || pool_->threads() != threads) pool_ = std::make_unique<WorkerPool>(threads);
  return pool_.get();
}

VectorResetResult VectorEnv::reset(std::optional<std::uint64_t> seed) {
  check_then_run(
      slots_, pool(), CheckOn::caller, [](std::size_t) {},
      [&](std::size_t i) {
        const ResetResult r = envs_[i]->reset(seed ? std::optional(*seed + i) : std::nullopt);
        record(i, r.obs, r.info, 0, false, false);
        slots_[i].pending_reset = false;
      });
  started_ = true;
  return {obs_, infos_};
}

void VectorEnv::record(std::size_t i, const ObservationView& obs, const EnvInfo& info,
                       double reward, bool terminated, bool truncated) {
  ObservationView view = obs;
  if (obs.action_mask.size() == mask_width_) {
    std::uint8_t* batch = masks_.data() + i * mask_width_;
    for (std::size_t m = 0; m < mask_width_; ++m)
      if (batch[m] != obs.action_mask[m]) batch[m] = obs.action_mask[m];
    view.action_mask = {batch, mask_width_};
  }
  // The view's spans point into the env, and most steps leave them where they were. Compared as
  // words, inline (the view is pointers and sizes, without padding): memcmp's call, which
  // std::array's == becomes, took a tenth of the step.
  static_assert(std::has_unique_object_representations_v<ObservationView>);
  using Words = std::array<std::uint64_t, sizeof(ObservationView) / sizeof(std::uint64_t)>;
  const Words before = std::bit_cast<Words>(obs_[i]);
  const Words after = std::bit_cast<Words>(view);
  std::uint64_t changed = 0;
  for (std::size_t w = 0; w < before.size(); ++w)
    changed |= before[w] ^ after[w];
  if (changed != 0) obs_[i] = view;
  infos_[i] = info;
  rewards_[i] = reward;
  if (terminated_[i] != terminated) terminated_[i] = terminated ? 1 : 0;
  if (truncated_[i] != truncated) truncated_[i] = truncated ? 1 : 0;
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
  const std::span<const std::uint8_t> mask = obs_[i].action_mask;
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
  check_then_run(
      slots_, pool(), k == 1 ? CheckOn::caller : CheckOn::threads,
      [&](std::size_t i) {
        if (!slots_[i].pending_reset) check_action(i, actions.subspan(i * k, k));
      },
      [&](std::size_t i) {
        Slot& slot = slots_[i];
        if (slot.pending_reset) {
          const ResetResult r = envs_[i]->reset();
          record(i, r.obs, r.info, 0, false, false);
          slot.pending_reset = false;
          return;
        }
        const StepResult r = envs_[i]->step(actions.subspan(i * k, k));
        record(i, r.obs, r.info, r.reward, r.terminated, r.truncated);
        if (r.terminated || r.truncated) slot.pending_reset = true;
      });
  return last();
}

VectorStepResult VectorEnv::last() const {
  return {obs_, rewards_, terminated_, truncated_, infos_};
}

}  // namespace memplace
