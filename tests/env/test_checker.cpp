// The checker itself: the toy environments pass it, and each way of breaking the contract (one
// deliberate fault in a wrapper around a real environment) is reported with the right message.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "env/checker.hpp"
#include "env/placement_context.hpp"
#include "env/sequential_env.hpp"
#include "env/single_step_env.hpp"
#include "tests/support/problem_list.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

enum class Fault {
  none,
  accepts_bad_actions,          // swallows the inner env's rejection
  wrong_exception,              // std::out_of_range instead of std::invalid_argument
  empty_message,                // std::invalid_argument("")
  reject_changes_hidden_state,  // a rejected action changes later rewards
  reject_changes_observation,
  clamps_out_of_range,   // MultiDiscrete: entries >= nvec become nvec - 1
  accepts_after_end,     // returns the last step again after termination
  accepts_before_reset,  // steps before the first reset are ignored, not rejected
  never_terminates,
  truncates,
  nan_reward,
  stale_info_step,
  feature_out_of_range,
  mask_not_binary,
  mask_allows_nothing,
  reset_not_deterministic,  // the reset observation alternates
  reset_ignores_seed,       // rng() not reseeded
  draws_from_rng,
  global_state,        // rewards depend on how many environments were made before
  clone_shares_state,  // clone() steps the same inner environment
  wrong_edge_count,    // observation space disagrees with the observations
  empty_action_space,
};

// A real environment with one fault injected.
class FaultyEnv final : public Env {
 public:
  FaultyEnv(std::shared_ptr<Env> inner, Fault fault)
      : inner_(std::move(inner)), fault_(fault), generation_(made_++) {}
  FaultyEnv(const FaultyEnv& other)
      : Env(other),
        inner_(other.fault_ == Fault::clone_shares_state ? other.inner_ : other.inner_->clone()),
        fault_(other.fault_),
        generation_(other.generation_),
        steps_(other.steps_),
        resets_(other.resets_),
        bonus_(other.bonus_),
        shifted_(other.shifted_),
        own_(other.own_),
        last_(other.last_) {}

  const std::string& id() const override { return id_; }
  Space observation_space() const override {
    Space s = inner_->observation_space();
    if (fault_ == Fault::wrong_edge_count) std::get<GraphSpace>(s).num_edges += 1;
    return s;
  }
  Space action_space() const override {
    if (fault_ == Fault::empty_action_space) return Discrete{0};
    return inner_->action_space();
  }
  std::size_t episode_length() const override { return inner_->episode_length(); }

  ResetResult reset(std::optional<std::uint64_t> seed = std::nullopt) override {
    if (seed && fault_ != Fault::reset_ignores_seed) rng_.reseed(*seed);
    ResetResult r = inner_->reset(seed);
    ++resets_;
    steps_ = 0;
    bonus_ = 0;
    shifted_ = false;
    r.obs = observation();
    return r;
  }

  StepResult step(std::span<const std::int64_t> action) override {
    if (fault_ == Fault::draws_from_rng) rng_.next();
    std::vector<std::int64_t> a(action.begin(), action.end());
    if (fault_ == Fault::clamps_out_of_range) {
      const std::vector<std::int64_t> nvec = std::get<MultiDiscrete>(inner_->action_space()).nvec;
      for (std::size_t i = 0; i < a.size() && i < nvec.size(); ++i)
        a[i] = std::min(a[i], nvec[i] - 1);
    }
    StepResult r;
    try {
      r = inner_->step(a);
    } catch (const std::invalid_argument& e) {
      switch (fault_) {
        case Fault::accepts_bad_actions:
        case Fault::accepts_after_end:
        case Fault::accepts_before_reset:
          if (fault_ == Fault::accepts_bad_actions ||
              (fault_ == Fault::accepts_after_end && steps_ == episode_length()) ||
              (fault_ == Fault::accepts_before_reset && resets_ == 0)) {
            StepResult same = last_;
            same.obs = observation();
            return same;
          }
          throw;
        case Fault::wrong_exception:
          throw std::out_of_range(e.what());
        case Fault::empty_message:
          throw std::invalid_argument("");
        case Fault::reject_changes_hidden_state:
          bonus_ += 1e-3;
          throw;
        case Fault::reject_changes_observation:
          shifted_ = true;
          throw;
        default:
          throw;
      }
    }
    ++steps_;
    r.reward += bonus_;
    if (fault_ == Fault::global_state) r.reward += static_cast<double>(generation_) * 1e-3;
    if (fault_ == Fault::nan_reward && steps_ == 2) r.reward = std::nan("");
    if (fault_ == Fault::never_terminates) r.terminated = false;
    if (fault_ == Fault::truncates && r.terminated) r.truncated = true;
    if (fault_ == Fault::stale_info_step) r.info.step = 0;
    r.obs = observation();
    last_ = r;
    return r;
  }
  using Env::step;

  ObservationView observation() const override {
    const ObservationView v = inner_->observation();
    const bool edits = fault_ == Fault::feature_out_of_range || fault_ == Fault::mask_not_binary ||
                       fault_ == Fault::mask_allows_nothing ||
                       fault_ == Fault::reset_not_deterministic || shifted_;
    if (!edits) return v;
    // Edited in place, so that earlier views stay valid as the inner env's do.
    own_.graph = *v.owner;
    own_.dynamic_features = v.dynamic_features;
    own_.dynamic.assign(v.dynamic.begin(), v.dynamic.end());
    own_.action_mask.assign(v.action_mask.begin(), v.action_mask.end());
    if (fault_ == Fault::feature_out_of_range) own_.dynamic[0] = 1.5f;
    if (fault_ == Fault::mask_not_binary) own_.action_mask[0] = 2;
    if (fault_ == Fault::mask_allows_nothing) std::fill_n(own_.action_mask.begin(), 2, 0);
    if (fault_ == Fault::reset_not_deterministic) own_.dynamic[0] = resets_ % 2 ? 0.5f : 0.25f;
    if (shifted_) own_.dynamic[0] = 0.5f;
    return own_.view();
  }

  std::unique_ptr<Env> clone() const override { return std::make_unique<FaultyEnv>(*this); }
  OptionMap options() const override { return inner_->options(); }
  const Simulator& simulator() const override { return inner_->simulator(); }

 private:
  static inline int made_ = 0;
  std::string id_ = "toy/faulty";
  std::shared_ptr<Env> inner_;
  Fault fault_;
  int generation_;
  std::size_t steps_ = 0;
  int resets_ = 0;
  double bonus_ = 0;
  bool shifted_ = false;
  mutable Observation own_;
  StepResult last_;
};

std::shared_ptr<const PlacementContext> chain_context() {
  static const auto ctx =
      make_placement_context(std::make_shared<const Simulator>(toy::chain(), toy::hardware()));
  return ctx;
}

std::shared_ptr<Env> sequential() {
  return std::make_shared<SequentialEnv>("toy/sequential", chain_context());
}
std::shared_ptr<Env> single_step() {
  return std::make_shared<SingleStepEnv>("toy/single-step", chain_context());
}

using testing::joined;

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

TEST_CASE("checker: the toy environments conform") {
  for (auto make_env : {sequential, single_step}) {
    const std::shared_ptr<Env> env = make_env();
    const std::vector<std::string> problems = check_env(*env, {});
    CHECK_MESSAGE(problems.empty(), env->id() << joined(problems));
    // The wrapper without a fault conforms too, so problems below come from the faults.
    FaultyEnv wrapped(make_env(), Fault::none);
    const std::vector<std::string> wrapped_problems = check_env(wrapped, {});
    CHECK_MESSAGE(wrapped_problems.empty(), joined(wrapped_problems));
  }
  for (const Workload& w : {toy::tight(), toy::diamond(), toy::residual(), toy::huge_weight()}) {
    const auto ctx = make_placement_context(std::make_shared<const Simulator>(w, toy::hardware()));
    SequentialEnv seq("toy/sequential", ctx);
    SingleStepEnv single("toy/single-step", ctx, {SpeedupReward::egrl, InvalidPolicy::rectify});
    CHECK_MESSAGE(check_env(seq).empty(), w.name() << joined(check_env(seq)));
    CHECK_MESSAGE(check_env(single).empty(), w.name() << joined(check_env(single)));
  }
}

struct Case {
  Fault fault;
  std::shared_ptr<Env> (*inner)();
  const char* expected;
};

TEST_CASE("checker: each broken contract is reported") {
  const std::vector<Case> cases = {
      {Fault::accepts_bad_actions, sequential, "accepted a bad action: too long"},
      {Fault::accepts_bad_actions, single_step, "accepted a bad action: too long"},
      {Fault::wrong_exception, sequential, "instead of std::invalid_argument"},
      {Fault::empty_message, single_step, "has no message"},
      {Fault::reject_changes_hidden_state, sequential, "differs from a clone's that saw none"},
      {Fault::reject_changes_observation, sequential, "changed the observation"},
      {Fault::clamps_out_of_range, single_step, "accepted a bad action: out of range (entry 5"},
      {Fault::accepts_after_end, sequential, "accepted a bad action: step after termination"},
      {Fault::never_terminates, sequential, "terminated is false after 5 of episode_length() = 5"},
      {Fault::never_terminates, single_step, "terminated is false after 1"},
      {Fault::truncates, single_step, "truncated is true"},
      {Fault::nan_reward, sequential, "reward is nan"},
      {Fault::stale_info_step, sequential, "info.step is 0; 1 steps were taken"},
      {Fault::feature_out_of_range, sequential, "feature 21 = 1.5"},
      {Fault::mask_not_binary, sequential, "action_mask[0] = 2 is not 0 or 1"},
      {Fault::mask_allows_nothing, sequential, "action_mask allows no action"},
      {Fault::reset_not_deterministic, single_step, "gives another observation"},
      {Fault::reset_ignores_seed, sequential, "did not reseed rng()"},
      {Fault::draws_from_rng, single_step, "step() drew from rng()"},
      {Fault::clone_shares_state, sequential, "differs from a clone's"},
      {Fault::wrong_edge_count, single_step, "edge count is 2; the observation space says 3"},
      {Fault::empty_action_space, sequential, "action space Discrete(0) is empty"},
  };
  for (const Case& c : cases) {
    CAPTURE(static_cast<int>(c.fault));
    FaultyEnv env(c.inner(), c.fault);
    const std::vector<std::string> problems = check_env(env, {});
    CHECK_MESSAGE(mentions(problems, c.expected),
                  "expected '" << std::string(c.expected) << "' among:" << joined(problems));
  }
}

TEST_CASE("checker: a fresh environment must replay the same seed and actions") {
  // Each environment's rewards depend on how many were made before it: a clone taken inside the
  // checker cannot see that, a freshly made one can.
  FaultyEnv env(sequential(), Fault::global_state);
  CHECK(check_env(env, {}).empty());
  CheckOptions options;
  options.make_fresh = [] {
    return std::make_unique<FaultyEnv>(sequential(), Fault::global_state);
  };
  const std::vector<std::string> problems = check_env(env, options);
  CHECK_MESSAGE(mentions(problems, "fresh environment step 0: the same seed and actions give"),
                joined(problems));
}

TEST_CASE("checker: a fresh environment must reject a step before its first reset") {
  FaultyEnv env(single_step(), Fault::accepts_before_reset);
  CheckOptions options;
  options.make_fresh = [] {
    return std::make_unique<FaultyEnv>(single_step(), Fault::accepts_before_reset);
  };
  const std::vector<std::string> problems = check_env(env, options);
  CHECK_MESSAGE(mentions(problems, "accepted a bad action: step before the first reset"),
                joined(problems));
}

TEST_CASE("checker: max_problems caps the report") {
  FaultyEnv env(sequential(), Fault::feature_out_of_range);
  CheckOptions options;
  options.max_problems = 3;
  const std::vector<std::string> problems = check_env(env, options);
  REQUIRE(problems.size() == 4);
  CHECK(problems.back().find("stopped after 3 problems") != std::string::npos);
}

}  // namespace
}  // namespace memplace
