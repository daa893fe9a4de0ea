// An agent's hyperparameters: declared by name (OptionSpec, in its AgentInfo), resolved against
// those declarations, read typed here. Every value is range-checked where it is read, so a bad one
// is refused, naming the agent and the hyperparameter, before a run starts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/options.hpp"

namespace memplace::agents {

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
