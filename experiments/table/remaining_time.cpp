#include "experiments/table/remaining_time.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>

#include "agents/registry.hpp"

namespace memplace::experiments {

double expected_run_seconds(const std::string& agent, std::size_t tensors, std::uint64_t budget) {
  // Each agent's own (AgentInfo::run_cost); an external agent's runs are not memplace's to run,
  // and are costed as an unmeasured agent's.
  const agents::AgentInfo* info = agents::find_agent_or_null(agent);
  const double at_20000 = (info ? info->run_cost : agents::RunCost{}).seconds_at_20000(tensors);
  // Plus what every run costs besides its evaluations: making the env, writing the run folder.
  constexpr double kPerRun = 0.1;
  return kPerRun + at_20000 * static_cast<double>(budget) / 20000.0;
}

RemainingTime::RemainingTime(std::vector<Run> runs, std::size_t workers)
    : runs_(std::move(runs)),
      workers_(std::max<std::size_t>(1, workers)),
      started_at_(runs_.size(), -1.0),
      finished_(runs_.size(), false) {}

void RemainingTime::started(std::size_t index, double now) {
  started_at_.at(index) = now;
}

void RemainingTime::finished(std::size_t index, double now) {
  if (started_at_.at(index) < 0) throw std::logic_error("RemainingTime: a run finished unstarted");
  finished_.at(index) = true;
  const double actual = std::max(0.0, now - started_at_[index]);
  auto& [agent_actual, agent_expected] = agent_actual_expected_[runs_[index].agent];
  agent_actual += actual;
  agent_expected += runs_[index].expected_seconds;
  actual_ += actual;
  expected_ += runs_[index].expected_seconds;
}

double RemainingTime::scale(const std::string& agent) const {
  const auto it = agent_actual_expected_.find(agent);
  if (it != agent_actual_expected_.end() && it->second.second > 0)
    return it->second.first / it->second.second;
  return expected_ > 0 ? actual_ / expected_ : 1.0;
}

double RemainingTime::seconds_left(double now) const {
  // When each worker is free: after what is left of its run in flight (a run past its estimate is
  // given a tenth of it more), then the runs not started, each to the first worker free.
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  std::vector<std::size_t> waiting;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    if (finished_[i]) continue;
    if (started_at_[i] < 0) {
      waiting.push_back(i);
      continue;
    }
    const double estimate = runs_[i].expected_seconds * scale(runs_[i].agent);
    const double elapsed = now - started_at_[i];
    free_at.push(std::max(estimate - elapsed, 0.1 * estimate));
  }
  while (free_at.size() < workers_)
    free_at.push(0.0);
  double last = 0;
  for (std::size_t i : waiting) {
    const double at = free_at.top() + runs_[i].expected_seconds * scale(runs_[i].agent);
    free_at.pop();
    free_at.push(at);
  }
  while (!free_at.empty()) {
    last = std::max(last, free_at.top());
    free_at.pop();
  }
  return last;
}

}  // namespace memplace::experiments
