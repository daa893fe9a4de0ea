// Every agent, in the order of the table's rows and of `memplace list`. An agent is one file that
// defines `AgentInfo <name>_agent()` in memplace::agents and one line in the list below
// (docs/agents.md, "Adding an agent").
#include "agents/registry.hpp"

namespace memplace::agents {

// The list: one line per agent, a new one above the closing comment. (A list macro, so that a
// name written once is both declared and listed.)
#define MEMPLACE_AGENTS(AGENT) \
  AGENT(egrl)                  \
  AGENT(ea)                    \
  AGENT(sac)                   \
  AGENT(ppo)                   \
  AGENT(mcts)                  \
  AGENT(greedy_dp)             \
  AGENT(annealing)             \
  AGENT(random)                \
  /* end of the list */

#define MEMPLACE_DECLARE(name) AgentInfo name##_agent();
MEMPLACE_AGENTS(MEMPLACE_DECLARE)
#undef MEMPLACE_DECLARE

const std::vector<AgentInfo>& agent_registry() {
#define MEMPLACE_MAKE(name) name##_agent(),
  static const std::vector<AgentInfo> registry = {MEMPLACE_AGENTS(MEMPLACE_MAKE)};
#undef MEMPLACE_MAKE
  return registry;
}

}  // namespace memplace::agents
