#include "env/checker.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <typeinfo>

#include <cxxabi.h>

#include "env/placement_order.hpp"
#include "env/registry.hpp"

namespace memplace {

namespace {

using Action = std::vector<std::int64_t>;
using InfoMap = std::vector<std::pair<std::string, double>>;

// Thrown inside the checker when max_problems is reached, or when it cannot go on.
struct TooManyProblems {};
struct CannotContinue {};

// Exact comparison (bit patterns: determinism means the very same doubles).
bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::string type_name(const std::exception& e) {
  int status = 0;
  char* name = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name != nullptr ? name : typeid(e).name();
  std::free(name);
  return out;
}

bool same_info(const InfoMap& a, const InfoMap& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](auto& x, auto& y) {
           return x.first == y.first && same_bits(x.second, y.second);
         });
}

std::string show_info(const InfoMap& info) {
  std::string out = "{";
  for (const auto& [name, value] : info) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    out += (out.size() > 1 ? ", " : "") + name + ": " + buffer;
  }
  return out + "}";
}

std::string show_action(std::span<const std::int64_t> action) {
  if (action.size() > 6) return "an action of " + std::to_string(action.size()) + " entries";
  std::string out = "[";
  for (std::size_t i = 0; i < action.size(); ++i)
    out += (i ? ", " : "") + std::to_string(action[i]);
  return out + "]";
}

// Equal contents, not only equal hashes (a hash can collide; a view can alias the wrong buffer).
bool same_observation(const Observation& a, const ObservationView& b) {
  const ObservationView v = a.view();
  if (v.num_nodes() != b.num_nodes() || v.num_features() != b.num_features()) return false;
  const std::vector<float> fa = v.node_features();
  const std::vector<float> fb = b.node_features();
  auto same_bits = [](float x, float y) {
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
  };
  return std::equal(fa.begin(), fa.end(), fb.begin(), same_bits) &&
         std::equal(v.occupancy.begin(), v.occupancy.end(), b.occupancy.begin(), b.occupancy.end(),
                    same_bits) &&
         v.graph->edges == b.graph->edges &&
         std::equal(v.action_mask.begin(), v.action_mask.end(), b.action_mask.begin(),
                    b.action_mask.end());
}

// One step of a trajectory, as compared between runs.
struct StepRecord {
  Action action;
  double reward = 0;
  bool terminated = false;
  bool truncated = false;
  InfoMap info;
  std::uint64_t obs_hash = 0;
};

bool same_step(const StepRecord& a, const StepRecord& b) {
  return a.action == b.action && same_bits(a.reward, b.reward) && a.terminated == b.terminated &&
         a.truncated == b.truncated && same_info(a.info, b.info) && a.obs_hash == b.obs_hash;
}

std::string show_step(const StepRecord& r) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer,
                "reward %.17g, terminated %d, truncated %d, obs hash %016llx", r.reward,
                r.terminated, r.truncated, static_cast<unsigned long long>(r.obs_hash));
  return buffer + (", info " + show_info(r.info));
}

StepRecord record(const Action& action, const StepResult& r) {
  return {action, r.reward, r.terminated, r.truncated, r.info.to_map(), r.obs.hash()};
}

class Checker {
 public:
  Checker(Env& env, const CheckOptions& options) : env_(env), options_(options) {}

  std::vector<std::string> run() {
    try {
      run_checks();
    } catch (const CannotContinue&) {
    } catch (const TooManyProblems&) {
      problems_.push_back(env_.id() + ": stopped after " + std::to_string(options_.max_problems) +
                          " problems");
    } catch (const std::exception& e) {
      // Pushed directly: problem() may throw once the list is full.
      problems_.push_back(env_.id() + ": " + where_ + "unexpected exception " + type_name(e) +
                          ": " + e.what());
    }
    return std::move(problems_);
  }

 private:
  void problem(const std::string& what) {
    if (problems_.size() >= options_.max_problems) throw TooManyProblems{};
    problems_.push_back(env_.id() + ": " + where_ + what);
  }

  void run_checks() {
    // Taken before anything steps the environment: the fallback "fresh" environment.
    std::unique_ptr<Env> initial_clone = env_.clone();
    if (!check_spaces()) return;
    check_reset();
    std::vector<StepRecord> first;
    for (std::size_t e = 0; e < options_.episodes; ++e) {
      std::vector<StepRecord> trajectory = run_episode(e);
      if (e == 0) first = std::move(trajectory);
    }
    where_.clear();
    if (!first.empty()) check_fresh_replay(first, std::move(initial_clone));
  }

  // --- Spaces -----------------------------------------------------------------------------

  bool check_spaces() {
    const Space obs_space = env_.observation_space();
    const Space act_space = env_.action_space();
    bool usable = true;
    if (const auto* d = std::get_if<Discrete>(&act_space)) {
      if (d->n <= 0) {
        problem("action space " + d->describe() + " is empty");
        usable = false;
      }
    } else if (const auto* md = std::get_if<MultiDiscrete>(&act_space)) {
      if (md->nvec.empty()) {
        problem("action space MultiDiscrete has no dimension");
        usable = false;
      }
      for (std::size_t i = 0; i < md->nvec.size(); ++i) {
        if (md->nvec[i] <= 0) {
          problem("action space MultiDiscrete nvec[" + std::to_string(i) +
                  "] = " + std::to_string(md->nvec[i]) + " is not positive");
          usable = false;
          break;
        }
      }
    } else {
      problem("action space " + describe(act_space) +
              " is not Discrete or MultiDiscrete (actions are integer spans)");
      usable = false;
    }
    const auto* g = std::get_if<GraphSpace>(&obs_space);
    if (g == nullptr) {
      problem("observation space " + describe(obs_space) + " is not a GraphSpace");
      return false;
    }
    if (!(std::isfinite(g->low) && std::isfinite(g->high) && g->low <= g->high)) {
      problem("observation space bounds [" + std::to_string(g->low) + ", " +
              std::to_string(g->high) + "] are not a finite interval");
    }
    if (g->num_nodes == 0) problem("observation space has no node");
    if (g->node_features == 0) problem("observation space has no node feature");
    std::size_t mask_expected = 0;  // a mask has one entry per value of each action dimension
    if (const auto* d = std::get_if<Discrete>(&act_space)) {
      mask_expected = static_cast<std::size_t>(std::max<std::int64_t>(0, d->n));
    } else if (const auto* md = std::get_if<MultiDiscrete>(&act_space)) {
      for (std::int64_t n : md->nvec)
        mask_expected += static_cast<std::size_t>(std::max<std::int64_t>(0, n));
    }
    if (g->mask_size != 0 && g->mask_size != mask_expected) {
      problem("observation space action_mask has " + std::to_string(g->mask_size) +
              " entries; expected 0 or " + std::to_string(mask_expected) + " for " +
              describe(act_space));
    }
    if (env_.episode_length() == 0) {
      problem("episode_length() is 0");
      usable = false;
    }
    obs_space_ = *g;
    act_space_ = act_space;
    return usable;
  }

  // masked_action=fallback (env/placement_order.hpp): a masked action is taken as its fallback
  // instead of being rejected.
  bool masked_falls_back() const {
    const OptionMap options = env_.options();
    const auto it = options.find("masked_action");
    return it != options.end() && it->second == "fallback";
  }

  // Under masked_action=fallback, every masked action steps exactly as its fallback does (on
  // clones: env_ itself is left as it was), and only its info says it was replaced.
  void probe_masked_fallback() {
    const ObservationView obs = env_.observation();
    const std::vector<std::uint8_t> mask(obs.action_mask.begin(), obs.action_mask.end());
    for (std::size_t a = 0; a < mask.size(); ++a) {
      if (mask[a] != 0) continue;
      const Action masked{static_cast<std::int64_t>(a)};
      const Action taken{static_cast<std::int64_t>(fallback_action(mask, a))};
      const std::unique_ptr<Env> asked = env_.clone(), direct = env_.clone();
      try {
        const StepResult r = asked->step(masked);
        const StepResult f = direct->step(taken);
        if (!r.info.replaced_action || f.info.replaced_action) {
          problem("masked action " + show_action(masked) +
                  ": info replaced_action is not 1 for it and 0 for its fallback");
        }
        EnvInfo info = r.info;
        info.replaced_action = false;
        if (!same_step(record(taken, {r.obs, r.reward, r.terminated, r.truncated, info}),
                       record(taken, f))) {
          problem("masked action " + show_action(masked) + " does not step as its fallback " +
                  show_action(taken) + " (masked_action=fallback)");
        }
      } catch (const std::exception& e) {
        problem("masked action " + show_action(masked) +
                " under masked_action=fallback threw: " + e.what());
      }
    }
  }

  bool has_discrete_mask() const {
    const auto* d = std::get_if<Discrete>(&act_space_);
    return d != nullptr && obs_space_.mask_size == static_cast<std::size_t>(d->n);
  }

  // Sizes and values of an observation against the observation space.
  void check_observation(const ObservationView& obs, bool terminal) {
    const GraphSpace& s = obs_space_;
    if (obs.graph == nullptr) return problem("observation has no graph");
    const StaticGraph& g = *obs.graph;
    bool sizes = true;
    auto expect = [&](const char* what, std::size_t got, std::size_t want) {
      if (got != want) {
        problem(std::string("observation ") + what + " is " + std::to_string(got) +
                "; the observation space says " + std::to_string(want));
        sizes = false;
      }
    };
    expect("node count", obs.num_nodes(), s.num_nodes);
    expect("feature count", obs.num_features(), s.node_features);
    expect("edge count", g.num_edges(), s.num_edges);
    expect("action_mask size", obs.action_mask.size(), s.mask_size);
    expect("static feature array size", g.nodes.size(), g.num_nodes * g.num_features);
    expect("dynamic feature array size", obs.dynamic.size(), g.num_nodes * obs.dynamic_features);
    expect("edge array size (2 x edges)", g.edges.size(), 2 * s.num_edges);
    for (std::size_t d = 0; d < 3; ++d)
      expect("occupancy grid dimension", obs.occupancy_shape[d], s.occupancy_shape[d]);
    expect("occupancy array size", obs.occupancy.size(), grid_size(s.occupancy_shape));
    if (!sizes) return;

    auto check_values = [&](std::span<const float> values, std::size_t width, std::size_t first) {
      for (std::size_t i = 0; i < values.size(); ++i) {
        const float v = values[i];
        if (!(std::isfinite(v) && v >= s.low && v <= s.high)) {
          return problem("node " + std::to_string(i / width) + " feature " +
                         std::to_string(first + i % width) + " = " + std::to_string(v) +
                         " is outside [" + std::to_string(s.low) + ", " + std::to_string(s.high) +
                         "]");
        }
      }
    };
    if (g.num_features > 0) check_values(g.nodes, g.num_features, 0);
    if (obs.dynamic_features > 0) check_values(obs.dynamic, obs.dynamic_features, g.num_features);
    for (std::size_t i = 0; i < obs.occupancy.size(); ++i) {
      const float v = obs.occupancy[i];
      if (!(std::isfinite(v) && v >= 0.0f && v <= 1.0f))
        return problem("occupancy cell " + std::to_string(i) + " = " + std::to_string(v) +
                       " is outside [0, 1]");
    }
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
      if (g.edges[i] < 0 || g.edges[i] >= static_cast<std::int64_t>(g.num_nodes)) {
        return problem("edge " + std::to_string(i % s.num_edges) + " has node index " +
                       std::to_string(g.edges[i]) + " outside [0, " + std::to_string(g.num_nodes) +
                       ")");
      }
    }
    std::size_t allowed = 0;
    for (std::size_t i = 0; i < obs.action_mask.size(); ++i) {
      if (obs.action_mask[i] > 1) {
        return problem("action_mask[" + std::to_string(i) +
                       "] = " + std::to_string(obs.action_mask[i]) + " is not 0 or 1");
      }
      allowed += obs.action_mask[i];
    }
    if (has_discrete_mask() && !terminal && allowed == 0) {
      problem("action_mask allows no action before the episode ended");
    }
  }

  void check_info(const EnvInfo& info, std::size_t step) {
    for (const auto& [name, value] : info.to_map()) {
      if (!std::isfinite(value)) problem("info " + name + " is " + std::to_string(value));
    }
    if (info.step != step) {
      problem("info.step is " + std::to_string(info.step) + "; " + std::to_string(step) +
              " steps were taken");
    }
    if (info.latency_fs <= 0) problem("info.latency_fs is not positive");
    if (!(info.speedup > 0)) problem("info.speedup is not positive");
  }

  // --- Actions -----------------------------------------------------------------------------

  Action sample(Env& env, const ObservationView& obs) {
    if (const auto* d = std::get_if<Discrete>(&act_space_)) {
      const bool masked = obs.action_mask.size() == static_cast<std::size_t>(d->n);
      if (masked && std::none_of(obs.action_mask.begin(), obs.action_mask.end(),
                                 [](std::uint8_t m) { return m != 0; })) {
        problem("action_mask allows no action before the episode ended: cannot go on");
        throw CannotContinue{};
      }
      return {d->sample(env.rng(), masked ? obs.action_mask : std::span<const std::uint8_t>{})};
    }
    return std::get<MultiDiscrete>(act_space_).sample(env.rng());
  }

  std::size_t action_length() const {
    if (std::holds_alternative<Discrete>(act_space_)) return 1;
    return std::get<MultiDiscrete>(act_space_).nvec.size();
  }

  // Actions the environment must reject, with what is wrong with each.
  std::vector<std::pair<std::string, Action>> bad_actions(const ObservationView& obs) const {
    std::vector<std::pair<std::string, Action>> bad;
    const std::size_t length = action_length();
    bad.push_back({"too long (" + std::to_string(length + 1) + " entries)", Action(length + 1, 0)});
    bad.push_back({"empty", Action{}});
    if (const auto* d = std::get_if<Discrete>(&act_space_)) {
      bad.push_back({"out of range (-1)", Action{-1}});
      bad.push_back({"out of range (n = " + std::to_string(d->n) + ")", Action{d->n}});
      if (has_discrete_mask() && !masked_falls_back()) {
        for (std::size_t a = 0; a < obs.action_mask.size(); ++a) {
          if (obs.action_mask[a] == 0) {
            bad.push_back(
                {"masked (" + std::to_string(a) + ")", Action{static_cast<std::int64_t>(a)}});
          }
        }
      }
    } else {
      const auto& nvec = std::get<MultiDiscrete>(act_space_).nvec;
      Action a(length, 0);
      a[0] = -1;
      bad.push_back({"out of range (entry 0 = -1)", a});
      a[0] = 0;
      a[length - 1] = nvec[length - 1];
      bad.push_back({"out of range (entry " + std::to_string(length - 1) +
                         " = nvec = " + std::to_string(nvec[length - 1]) + ")",
                     a});
    }
    return bad;
  }

  // Steps `env` with an action it must reject; false if it accepted it (the state then changed).
  bool expect_rejected(Env& env, const std::string& what, const Action& action) {
    const Observation before = env.observation().copy();
    const std::uint64_t hash = env.observation().hash();
    const Rng rng = env.rng();
    try {
      env.step(action);
      problem("accepted a bad action: " + what);
      return false;
    } catch (const std::invalid_argument& e) {
      if (std::string_view(e.what()).empty()) {
        problem("the std::invalid_argument for a bad action (" + what + ") has no message");
      }
    } catch (const std::exception& e) {
      problem("a bad action (" + what + ") threw " + type_name(e) +
              " instead of std::invalid_argument: " + e.what());
    }
    if (env.observation().hash() != hash || !same_observation(before, env.observation())) {
      problem("rejecting a bad action (" + what + ") changed the observation");
    }
    if (!(env.rng() == rng)) problem("rejecting a bad action (" + what + ") changed rng()");
    return true;
  }

  // --- Reset -------------------------------------------------------------------------------

  // Steps with random actions until done or `steps` were taken.
  void play(std::size_t steps) {
    ObservationView obs = env_.observation();
    for (std::size_t t = 0; t < steps; ++t) {
      const StepResult r = env_.step(sample(env_, obs));
      if (r.terminated || r.truncated) return;
      obs = r.obs;
    }
  }

  void check_reset() {
    where_ = "reset: ";
    const std::uint64_t seed = options_.seed;
    ResetResult first = env_.reset(seed);
    const Observation obs = first.obs.copy();
    const std::uint64_t hash = first.obs.hash();
    const InfoMap info = first.info.to_map();
    const Rng rng = env_.rng();
    if (!(Rng(seed) == rng)) problem("reset(seed) did not reseed rng() with the seed");
    if (env_.observation().hash() != hash) problem("observation() differs from reset()'s");
    check_observation(first.obs, false);
    check_info(first.info, 0);

    auto compare = [&](const ResetResult& again, const std::string& call) {
      if (again.obs.hash() != hash) problem(call + " gives another observation hash");
      if (!same_observation(obs, again.obs)) problem(call + " gives another observation");
      if (!same_info(again.info.to_map(), info)) {
        problem(call + " gives info " + show_info(again.info.to_map()) + " instead of " +
                show_info(info));
      }
    };
    // After part of an episode, after a whole one, and (without a seed) after a whole one: the
    // initial state never depends on the seed, and reset() leaves rng() alone.
    play(env_.episode_length() / 2);
    compare(env_.reset(seed), "reset(seed) after part of an episode");
    if (!(env_.rng() == rng)) problem("reset(seed) twice gives different rng() states");
    play(env_.episode_length());
    compare(env_.reset(seed), "reset(seed) after a whole episode");
    play(env_.episode_length());
    const Rng drawn = env_.rng();
    compare(env_.reset(), "reset() after a whole episode");
    if (!(env_.rng() == drawn)) problem("reset() without a seed changed rng()");
  }

  // --- Episodes ----------------------------------------------------------------------------

  // Tries every bad action on env_ in its current (mid-episode) state; false if one was taken.
  bool probe_bad_actions() {
    for (const auto& [what, action] : bad_actions(env_.observation())) {
      if (!expect_rejected(env_, what, action)) return false;
    }
    return true;
  }

  // Steps `env` and checks the step; `t` counts steps before this one.
  StepRecord checked_step(Env& env, const Action& action, std::size_t t) {
    const Rng rng = env.rng();
    const StepResult r = env.step(action);
    const std::size_t length = env_.episode_length();
    if (!std::isfinite(r.reward)) problem("reward is " + std::to_string(r.reward));
    if (r.truncated) problem("truncated is true (these environments never truncate)");
    if (r.terminated != (t + 1 == length)) {
      problem("terminated is " + std::string(r.terminated ? "true" : "false") + " after " +
              std::to_string(t + 1) + " of episode_length() = " + std::to_string(length) +
              " steps");
    }
    if (!(env.rng() == rng)) problem("step() drew from rng() (it belongs to the agent)");
    if (env.observation().hash() != r.obs.hash()) problem("observation() differs from step()'s");
    check_observation(r.obs, r.terminated);
    check_info(r.info, t + 1);
    return record(action, r);
  }

  std::vector<StepRecord> run_episode(std::size_t episode) {
    const std::uint64_t seed = options_.seed + episode;
    where_ = "episode " + std::to_string(episode) + " (seed " + std::to_string(seed) + "): ";
    const std::size_t length = env_.episode_length();
    ResetResult start = env_.reset(seed);
    check_observation(start.obs, false);
    check_info(start.info, 0);

    // The first episode probes bad actions at its first and middle steps; a clone taken before
    // the first probe and stepped only with the good actions must then agree at every step.
    const bool probing = episode == 0;
    std::unique_ptr<Env> reference;
    std::vector<StepRecord> trajectory;
    ObservationView obs = start.obs;
    for (std::size_t t = 0; t < length; ++t) {
      where_ = "episode " + std::to_string(episode) + " (seed " + std::to_string(seed) + ") step " +
               std::to_string(t) + ": ";
      if (probing && (t == 0 || t == length / 2)) {
        if (!reference) reference = env_.clone();
        if (reference->observation().hash() != env_.observation().hash()) {
          problem("clone() has another observation");
        }
        if (!probe_bad_actions()) return {};
        if (has_discrete_mask() && masked_falls_back()) probe_masked_fallback();
      }
      const Action action = sample(env_, obs);
      StepRecord r = checked_step(env_, action, t);
      if (reference) {
        const StepRecord ref = record(action, reference->step(action));
        if (!same_step(r, ref)) {
          problem("after rejected bad actions the episode differs from a clone's that saw none: " +
                  show_step(r) + " vs " + show_step(ref));
          reference.reset();  // one report is enough
        }
      }
      const bool done = r.terminated || r.truncated;
      trajectory.push_back(std::move(r));
      if (done) {
        if (t + 1 < length) return trajectory;  // reported by checked_step
        break;
      }
      obs = env_.observation();
    }
    if (trajectory.size() == length && trajectory.back().terminated) {
      where_ = "episode " + std::to_string(episode) + " (seed " + std::to_string(seed) +
               ") after termination: ";
      expect_rejected(env_, "step after termination", Action(action_length(), 0));
    }
    return trajectory;
  }

  // --- Determinism -------------------------------------------------------------------------

  // A fresh environment, and whether it is one that was never reset (not a clone).
  std::pair<std::unique_ptr<Env>, bool> make_fresh(std::unique_ptr<Env> initial_clone) {
    if (options_.make_fresh) return {options_.make_fresh(), true};
    // An id the registry makes (listed or not: the ids of before the grammar, a suite workload
    // on another chip) has options; another env's does not.
    if (env_option_specs(env_.id()).empty()) return {std::move(initial_clone), false};
    // Only the options the id accepts (a workload-specific id fixes the workload).
    OptionMap given;
    const OptionMap current = env_.options();
    for (const OptionSpec& spec : env_option_specs(env_.id())) {
      if (auto it = current.find(spec.name); it != current.end()) given[spec.name] = it->second;
    }
    try {
      std::unique_ptr<Env> fresh = make(env_.id(), given);
      if (fresh->options() != current) {
        problem("make(id, options()) gives an environment with other options()");
      }
      return {std::move(fresh), true};
    } catch (const std::exception& e) {
      problem("make(id, options()) failed: " + std::string(e.what()));
      return {nullptr, false};
    }
  }

  void check_fresh_replay(const std::vector<StepRecord>& first,
                          std::unique_ptr<Env> initial_clone) {
    auto [fresh, never_reset] = make_fresh(std::move(initial_clone));
    if (!fresh) return;
    where_ = "fresh environment: ";
    if (never_reset) {
      expect_rejected(*fresh, "step before the first reset", Action(action_length(), 0));
    }
    if (describe(fresh->observation_space()) != describe(Space(obs_space_)) ||
        describe(fresh->action_space()) != describe(act_space_)) {
      problem("another environment of the same id and options has other spaces");
      return;
    }
    const ResetResult mine = env_.reset(options_.seed);
    const std::uint64_t hash = mine.obs.hash();
    const InfoMap info = mine.info.to_map();
    ResetResult start = fresh->reset(options_.seed);
    if (start.obs.hash() != hash) problem("reset(seed) gives another observation");
    if (!same_info(start.info.to_map(), info)) problem("reset(seed) gives another info");
    ObservationView obs = start.obs;
    bool same_draws = true;
    for (std::size_t t = 0; t < first.size(); ++t) {
      where_ = "fresh environment step " + std::to_string(t) + ": ";
      // The agent's draws must repeat too: reset(seed) seeds rng() the same way.
      const Action drawn = sample(*fresh, obs);
      if (same_draws && drawn != first[t].action) {
        problem("rng() after reset(seed) samples " + show_action(drawn) + " instead of " +
                show_action(first[t].action));
        same_draws = false;
      }
      const StepResult r = fresh->step(first[t].action);
      const StepRecord again = record(first[t].action, r);
      if (!same_step(again, first[t])) {
        problem("the same seed and actions give " + show_step(again) + " instead of " +
                show_step(first[t]));
        return;
      }
      obs = r.obs;
    }
  }

  Env& env_;
  const CheckOptions& options_;
  std::vector<std::string> problems_;
  std::string where_;  // context for the next problem ("episode 1 (seed 1) step 3: ")
  GraphSpace obs_space_;
  Space act_space_;
};

}  // namespace

std::vector<std::string> check_env(Env& env, const CheckOptions& options) {
  return Checker(env, options).run();
}

}  // namespace memplace
