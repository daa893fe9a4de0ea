#include "agents/registry.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "base/errors.hpp"
#include "base/text.hpp"

namespace memplace::agents {

std::vector<std::string> agents_where(const std::function<bool(const AgentInfo&)>& keep) {
  std::vector<std::string> names;
  for (const AgentInfo& info : agent_registry())
    if (keep(info)) names.push_back(info.name);
  return names;
}

std::vector<std::string> registered_agent_names() {
  return agents_where([](const AgentInfo&) { return true; });
}

std::vector<std::string> default_table_agents() {
  return agents_where([](const AgentInfo& info) { return info.default_row; });
}

std::vector<std::string> policy_agents() {
  return agents_where([](const AgentInfo& info) { return info.starts_from_policy; });
}

std::vector<std::string> agents_with_policy() {
  return agents_where([](const AgentInfo& info) { return info.has_policy; });
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

const AgentInfo* find_agent_or_null(std::string_view name) {
  for (const AgentInfo& info : agent_registry())
    if (info.name == name) return &info;
  return nullptr;
}

const AgentInfo& find_agent(std::string_view name) {
  if (const AgentInfo* info = find_agent_or_null(name)) return *info;
  throw InputError("unknown agent '" + std::string(name) +
                   "' (known: " + join(registered_agent_names(), ", ") + ")");
}

std::unique_ptr<Agent> make_agent(std::string_view name, const AgentSetup& setup) {
  return find_agent(name).make(setup);
}

}  // namespace memplace::agents
