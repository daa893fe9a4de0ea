#include "optimum/solver.hpp"

#include <CbcConfig.h>
#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "model/references.hpp"
#include "optimum/clp.hpp"
#include "optimum/dynamics_optimum.hpp"
#include "optimum/formulation.hpp"

namespace memplace::optimum {

namespace {

using Clock = std::chrono::steady_clock;

// A new incumbent must beat the last by this much (CBC's default, about 10 fs): the optimum is
// exact to within it.
constexpr double kCutoffIncrementUnits = 1e-5;

// What CBC's event handler (and every copy CBC makes of it) reports to.
struct SearchState {
  std::mutex mutex;
  const std::function<bool(const Progress&)>* progress = nullptr;
  TimeFs constant_fs = 0;
  Clock::time_point start;
  Clock::time_point last_report;
  double last_incumbent = std::numeric_limits<double>::infinity();
  bool stop = false;
};

class ProgressHandler final : public CbcEventHandler {
 public:
  explicit ProgressHandler(SearchState& state) : state_(&state) {}
  // CBC owns the copies it makes of its handler (its API).
  CbcEventHandler* clone() const override { return new ProgressHandler(*this); }

  CbcAction event(CbcEvent which) override {
    if (which != node && which != solution && which != heuristicSolution && which != treeStatus)
      return noAction;
    const std::lock_guard lock(state_->mutex);
    if (!state_->stop && state_->progress && *state_->progress) report();
    return state_->stop ? stop : noAction;
  }

 private:
  void report() {
    const double best = model_->getObjValue();
    const bool has_incumbent = best < 1e50;
    const bool improved = has_incumbent && best < state_->last_incumbent;
    const Clock::time_point now = Clock::now();
    if (!improved && now - state_->last_report < std::chrono::seconds(1)) return;
    state_->last_report = now;
    if (improved) state_->last_incumbent = best;
    Progress p;
    p.seconds = std::chrono::duration<double>(now - state_->start).count();
    p.nodes = model_->getNodeCount();
    if (has_incumbent) p.incumbent_fs = units_to_fs(best, state_->constant_fs);
    p.bound_fs = units_to_fs(model_->getBestPossibleObjValue(), state_->constant_fs);
    state_->stop = !(*state_->progress)(p);
  }

  SearchState* state_;
};

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

void SolverOptions::validate() const {
  if (!(time_limit_s > 0) || !std::isfinite(time_limit_s))
    throw std::invalid_argument("time limit: must be a positive number of seconds, got " +
                                number(time_limit_s));
  if (!(relative_gap >= 0 && relative_gap < 1))
    throw std::invalid_argument("relative gap: must be in [0, 1), got " + number(relative_gap));
  if (threads < 1 || threads > 64)
    throw std::invalid_argument("threads: must be 1 to 64, got " + std::to_string(threads));
}

std::string_view status_name(Status s) {
  switch (s) {
    case Status::optimal:
      return "optimal";
    case Status::gap_limit:
      return "gap_limit";
    case Status::time_limit:
      return "time_limit";
    case Status::stopped:
      return "stopped";
    case Status::infeasible:
      return "infeasible";
  }
  return "?";
}

std::optional<Status> status_from_name(std::string_view name) {
  for (Status s : {Status::optimal, Status::gap_limit, Status::time_limit, Status::stopped,
                   Status::infeasible}) {
    if (status_name(s) == name) return s;
  }
  return std::nullopt;
}

double Progress::gap() const {
  if (!incumbent_fs || *incumbent_fs <= 0) return 1;
  return std::max(0.0, (*incumbent_fs - bound_fs) / *incumbent_fs);
}

double Solution::gap() const {
  if (!mapping || latency_fs <= 0) return 1;
  return static_cast<double>(latency_fs - bound_fs) / static_cast<double>(latency_fs);
}

std::string solver_version() {
  return std::string("CBC ") + CBC_VERSION;
}

Solution solve(const Simulator& sim, const SolverOptions& options,
               const std::function<bool(const Progress&)>& progress) {
  options.validate();
  const DynamicsOptimum& part = optimum_part(sim);
  const bool exact = part.exact;
  const MipFormulation f = part.formulation(sim);
  const Mapping start = options.start.empty() ? compiler_mapping(sim) : options.start;
  sim.check_mapping(start);

  OsiClpSolverInterface solver = load_into_clp(f);
  CbcModel model(solver);
  model.setLogLevel(0);
  // The warm start by column name, the placements only: CBC completes the continuous columns.
  std::vector<std::pair<std::string, double>> mip_start;
  for (std::size_t t = 0; t < f.num_tensors; ++t) {
    for (std::size_t m = 0; m < f.num_memories; ++m) {
      mip_start.emplace_back(model.solver()->getColName(f.placement_column(t, m)),
                             start[t] == m ? 1.0 : 0.0);
    }
  }
  if (sim.evaluate(start).valid) model.setMIPStart(mip_start);

  SearchState state;
  state.progress = &progress;
  state.constant_fs = f.constant_fs;
  state.start = state.last_report = Clock::now();
  const ProgressHandler handler(state);
  model.passInEventHandler(&handler);

  // CBC's own driver (preprocessing, cut generators, heuristics), as the `cbc` program runs it.
  // Above one thread, 100 + n selects its deterministic parallel mode.
  const std::string seconds = number(options.time_limit_s);
  const std::string gap = number(options.relative_gap);
  const std::string threads = std::to_string(options.threads == 1 ? 1 : 100 + options.threads);
  const std::string increment = number(kCutoffIncrementUnits);
  const char* argv[] = {
      "memplace",      "-log",   "0",         "-timeMode",  "elapsed",         "-sec",
      seconds.c_str(), "-ratio", gap.c_str(), "-increment", increment.c_str(), "-threads",
      threads.c_str(), "-solve", "-quit"};
  CbcSolverUsefulData data;
  data.useSignalHandler_ = false;
  data.noPrinting_ = true;
  CbcMain0(model, data);
  model.setLogLevel(0);
  const int code = CbcMain1(
      static_cast<int>(std::size(argv)), argv, model, [](CbcModel*, int) { return 0; }, data);
  if (code != 0) throw std::runtime_error("CBC failed (code " + std::to_string(code) + ")");

  Solution s;
  s.exact = exact;
  s.seconds = std::chrono::duration<double>(Clock::now() - state.start).count();
  s.nodes = model.getNodeCount();
  if (model.isProvenInfeasible()) {
    s.status = Status::infeasible;
    return s;
  }
  // CBC stops when the search closes or the gap reaches relative_gap (secondary status 2); it is
  // optimal when nothing better by its cutoff increment can remain.
  const bool finished = model.isProvenOptimal() || model.secondaryStatus() == 2;
  const bool closed =
      model.getObjValue() - model.getBestPossibleObjValue() <= kCutoffIncrementUnits;
  if (state.stop)
    s.status = Status::stopped;
  else if (finished)
    s.status = closed ? Status::optimal : Status::gap_limit;
  else
    s.status = Status::time_limit;

  const double bound_fs = units_to_fs(model.getBestPossibleObjValue(), f.constant_fs);
  const double* best = model.bestSolution();
  if (!best) {
    s.bound_fs = static_cast<TimeFs>(std::floor(bound_fs));
    return s;
  }
  const Mapping mapping = f.mapping_of(std::span(best, f.num_columns()));
  const Evaluation eval = sim.evaluate(mapping);
  if (!eval.valid) {
    throw std::runtime_error(
        "CBC's best solution overflows a memory once rounded to a mapping "
        "(overflow " +
        std::to_string(eval.total_overflow_bytes()) + " bytes): a numerical problem in the solver");
  }
  s.mapping = mapping;
  s.latency_fs = eval.latency_fs;
  s.solver_objective_fs = units_to_fs(model.getObjValue(), f.constant_fs);
  s.bound_fs = std::min(s.latency_fs, static_cast<TimeFs>(std::floor(bound_fs)));
  return s;
}

}  // namespace memplace::optimum
