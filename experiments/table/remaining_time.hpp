// The time left of a batch of runs shared over a few workers (the table's progress line): each run
// has an expected cost; the finished runs say how many seconds a unit of cost takes, per agent once
// that agent has finished a run, else over every finished run; the runs left are then dealt out to
// the workers in their start order, as the table runner does, after the runs in flight.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace memplace::experiments {

// A run's expected wall time in seconds, on one core of the 2-core Intel Xeon development host:
// the agent's AgentInfo::run_cost at 20,000 evaluations, proportional to the budget, plus 0.1 s a
// run for what is not an evaluation (set from a quick table's short runs). Only the
// order of the runs, their shares over ranks and the time-left estimate depend on it, never a
// result. docs/table.md, "Progress and the time left", says how well it predicts another table.
double expected_run_seconds(const std::string& agent, std::size_t tensors, std::uint64_t budget);

class RemainingTime {
 public:
  // `runs`: each run's agent and expected seconds, in the order the workers take them; `workers`
  // run at once.
  struct Run {
    std::string agent;
    double expected_seconds = 0;
  };
  RemainingTime(std::vector<Run> runs, std::size_t workers);

  // Run `index` started (at `now`, seconds on any clock the caller keeps) or finished.
  void started(std::size_t index, double now);
  void finished(std::size_t index, double now);

  // The seconds until the last run ends, seen at `now`.
  double seconds_left(double now) const;

 private:
  // Seconds of one unit of expected cost for `agent`, from the finished runs.
  double scale(const std::string& agent) const;

  std::vector<Run> runs_;
  std::size_t workers_;
  std::vector<double> started_at_;  // < 0: not started
  std::vector<bool> finished_;
  std::map<std::string, std::pair<double, double>> agent_actual_expected_;
  double actual_ = 0, expected_ = 0;  // over every finished run
};

}  // namespace memplace::experiments
