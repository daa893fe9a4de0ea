// The agents by name, each with its documented hyperparameters (name, default, help), in the way
// environments are registered (env/registry.hpp). docs/agents.md describes each one.
//
// An agent is one file that defines `AgentInfo <name>_agent()` (agents/search/random_agent.cpp is
// the shortest) and one line in agents/agent_list.cpp; `memplace list`, `memplace train --agent`,
// the table's default rows and the shared agent conformance test pick it up from there
// (docs/agents.md, "Adding an agent").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.hpp"
#include "agents/hyperparameters.hpp"
#include "base/options.hpp"

namespace memplace::agents {

// What an agent that searches for the best mapping claims on small problems: with this budget and
// these hyperparameters it finds the optimum of every toy problem of the shared conformance test
// (12 tensors on 3 memories, brute-forced) from every seed it tries. Agents that sample at
// random, or whose aim is a policy rather than the best mapping, claim nothing.
struct ToyOptimumClaim {
  std::uint64_t budget = 0;
  OptionMap hyperparameters;
};

// What a run of the agent costs, for the order of a table's runs, their shares over ranks and its
// time-left estimate (never a result): seconds at 20,000 evaluations, on one core of the 2-core
// Intel Xeon development host, for a graph of n tensors, seconds_per_tensor x (n + fixed_tensors)
// ^ exponent. Fitted to the v1 table of EGRL's three workloads (docs/results/v1/timing.csv).
// The defaults are ea's: an agent not measured is taken to cost what ea does.
struct RunCost {
  double seconds_per_tensor = 0.0075;
  double fixed_tensors = 66;
  double exponent = 1;

  double seconds_at_20000(std::size_t tensors) const;
};

struct AgentInfo {
  std::string name;
  std::string summary;
  std::vector<std::string> envs;            // the --env values it supports, the default first
  std::vector<OptionSpec> hyperparameters;  // defaults as text; checked when the agent is made
  std::function<std::unique_ptr<Agent>(const AgentSetup&)> make;
  std::optional<ToyOptimumClaim> toy_optimum = std::nullopt;
  // Whether it can start its GNN from a trained network (AgentSetup::initial_policy).
  bool starts_from_policy = false;
  // Whether it is a row of the tables by default (`agents:` unset); an agent that is not (one
  // kept for ablations or teaching) is run by naming it.
  bool default_row = true;
  // The env versions (dynamics) it trains under; v2, the addressed dynamics, needs an agent that
  // builds its mappings in a game that gives tensors addresses (mcts: the malloc env).
  std::vector<ModelVersion> versions = {ModelVersion::v0, ModelVersion::v1};
  RunCost run_cost{};
  // Evaluations of one benchmark run (bench/bench_agents.cpp): enough to reach the agent's steady
  // state, few enough to repeat.
  std::uint64_t benchmark_budget = 2000;
  // Whether it learns a GNN policy that Agent::policy() returns (what `memplace transfer` saves;
  // the shared agent conformance test holds it to this). Every agent that starts from a policy has
  // one.
  bool has_policy = false;

  bool trains_under(ModelVersion version) const;
  std::vector<std::string> version_names() const;  // "v0", ... in the order of `versions`
};

// Every agent, in the order of agents/agent_list.cpp: the table's rows and `memplace list`.
const std::vector<AgentInfo>& agent_registry();
std::vector<std::string> registered_agent_names();
// The registered agents' names, in registry order, for which `keep` holds.
std::vector<std::string> agents_where(const std::function<bool(const AgentInfo&)>& keep);
// The default rows of a table: every agent whose AgentInfo::default_row is set, in registry order.
std::vector<std::string> default_table_agents();
// The agents that can start from a trained policy (AgentInfo::starts_from_policy), in registry
// order: the generalization track's default rows.
std::vector<std::string> policy_agents();
// The agents with a GNN policy (AgentInfo::has_policy), in registry order.
std::vector<std::string> agents_with_policy();
// Throws InputError listing the known agents.
const AgentInfo& find_agent(std::string_view name);
// Null for a name no registered agent has (an external agent's, in a table).
const AgentInfo* find_agent_or_null(std::string_view name);
std::unique_ptr<Agent> make_agent(std::string_view name, const AgentSetup& setup);

}  // namespace memplace::agents
