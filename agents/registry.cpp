#include "agents/registry.hpp"

#include <cmath>
#include <stdexcept>

#include "agents/classical_agents.hpp"
#include "agents/learning_agents.hpp"
#include "env/errors.hpp"

namespace memplace::agents {

const std::vector<AgentInfo>& agent_registry() {
  static const std::vector<AgentInfo> registry = [] {
    std::vector<AgentInfo> all;
    all.push_back(random_agent_info());
    all.push_back(greedy_dp_agent_info());
    all.push_back(annealing_agent_info());
    all.push_back(ea_agent_info());
    all.push_back(ppo_agent_info());
    all.push_back(sac_agent_info());
    all.push_back(egrl_agent_info());
    return all;
  }();
  return registry;
}

const AgentInfo& find_agent(std::string_view name) {
  std::string known;
  for (const AgentInfo& info : agent_registry()) {
    if (info.name == name) return info;
    known += (known.empty() ? "" : ", ") + info.name;
  }
  throw InputError("unknown agent '" + std::string(name) + "' (known: " + known + ")");
}

std::unique_ptr<Agent> make_agent(std::string_view name, const AgentSetup& setup) {
  return find_agent(name).make(setup);
}

namespace {

const std::string& lookup(const OptionMap& values, const std::string& agent,
                          std::string_view name) {
  const auto it = values.find(name);
  if (it == values.end())
    throw std::logic_error("agent '" + agent + "' reads hyperparameter '" + std::string(name) +
                           "', which it does not declare");
  return it->second;
}

}  // namespace

double Hyperparameters::number(std::string_view name, double min, double max) const {
  const std::string& text = lookup(values_, agent_, name);
  double value = 0;
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value) || value < min || value > max)
    throw InputError("agent '" + agent_ + "': hyperparameter " + std::string(name) + "=" + text +
                     ": expected a number in [" + std::to_string(min) + ", " + std::to_string(max) +
                     "]");
  return value;
}

std::int64_t Hyperparameters::integer(std::string_view name, std::int64_t min,
                                      std::int64_t max) const {
  const std::string& text = lookup(values_, agent_, name);
  std::int64_t value = 0;
  std::size_t used = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < min || value > max)
    throw InputError("agent '" + agent_ + "': hyperparameter " + std::string(name) + "=" + text +
                     ": expected a whole number in " + std::to_string(min) + ".." +
                     std::to_string(max));
  return value;
}

bool Hyperparameters::flag(std::string_view name) const {
  const std::string& text = lookup(values_, agent_, name);
  if (text == "true") return true;
  if (text == "false") return false;
  throw InputError("agent '" + agent_ + "': hyperparameter " + std::string(name) + "=" + text +
                   ": expected true or false");
}

const std::string& Hyperparameters::text(std::string_view name) const {
  return lookup(values_, agent_, name);
}

}  // namespace memplace::agents
