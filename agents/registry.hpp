// The agents by name, each with its documented hyperparameters (name, default, help), in the way
// environments are registered (env/registry.hpp). docs/agents.md describes each one.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.hpp"
#include "env/env_options.hpp"

namespace memplace::agents {

struct AgentInfo {
  std::string name;
  std::string summary;
  std::vector<std::string> envs;            // the --env values it supports, the default first
  std::vector<OptionSpec> hyperparameters;  // defaults as text; checked when the agent is made
  std::function<std::unique_ptr<Agent>(const AgentSetup&)> make;
};

const std::vector<AgentInfo>& agent_registry();
// Throws InputError listing the known agents.
const AgentInfo& find_agent(std::string_view name);
std::unique_ptr<Agent> make_agent(std::string_view name, const AgentSetup& setup);

// Typed access to resolved hyperparameters; InputError names the agent and the hyperparameter.
class Hyperparameters {
 public:
  Hyperparameters(std::string agent, const OptionMap& values)
      : agent_(std::move(agent)), values_(values) {}
  double number(std::string_view name, double min, double max) const;
  std::int64_t integer(std::string_view name, std::int64_t min, std::int64_t max) const;
  bool flag(std::string_view name) const;
  const std::string& text(std::string_view name) const;

 private:
  std::string agent_;
  const OptionMap& values_;
};

}  // namespace memplace::agents
