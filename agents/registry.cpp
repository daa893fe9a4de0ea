#include "agents/registry.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"

namespace memplace::agents {

std::vector<std::string> registered_agent_names() {
  std::vector<std::string> names;
  for (const AgentInfo& info : agent_registry())
    names.push_back(info.name);
  return names;
}

std::vector<std::string> default_table_agents() {
  std::vector<std::string> names;
  for (const AgentInfo& info : agent_registry())
    if (info.default_row) names.push_back(info.name);
  return names;
}

std::vector<std::string> policy_agents() {
  std::vector<std::string> names;
  for (const AgentInfo& info : agent_registry())
    if (info.starts_from_policy) names.push_back(info.name);
  return names;
}

std::vector<std::string> agents_with_policy() {
  std::vector<std::string> names;
  for (const AgentInfo& info : agent_registry())
    if (info.has_policy) names.push_back(info.name);
  return names;
}

double RunCost::seconds_at_20000(std::size_t tensors) const {
  return seconds_per_tensor * std::pow(static_cast<double>(tensors) + fixed_tensors, exponent);
}

bool AgentInfo::trains_under(ModelVersion version) const {
  return std::find(versions.begin(), versions.end(), version) != versions.end();
}

std::vector<std::string> AgentInfo::version_names() const {
  std::vector<std::string> names;
  for (const ModelVersion v : versions)
    names.emplace_back(version_name(v));
  return names;
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

}  // namespace memplace::agents
