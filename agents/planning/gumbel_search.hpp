// Planning by tree search on an environment's exact dynamics, with Gumbel root selection and
// sequential halving and the completed-Q improved policy (Danihelka et al., ICLR 2022, "Policy
// improvement by planning with Gumbel"): the search that stays sound with few simulations.
//
// The model is the environment itself: a node holds a clone of the state, and expanding a child
// clones its parent and steps it once (AlphaZero-style; the sequential env and the malloc env
// clone exactly). An evaluator — the GNN's policy and value heads, or a stand-in — gives each new
// state a prior over its actions and an estimate of the return still to come.
//
// One decision (gumbel_search):
//  - Root: m = min(considered, allowed actions) actions are drawn without replacement by the
//    Gumbel top-k trick (the m largest g(a) + logits(a), g ~ Gumbel(0, 1)); sequential halving
//    spends the simulations over ⌈log2 m⌉ phases, each visiting every remaining action equally
//    often, then keeps the better half by g(a) + logits(a) + σ(q̂(a)). The action played is the
//    best remaining one by the same score.
//  - Inside the tree: the deterministic selection of the paper, argmax over allowed actions of
//    π'(a) − N(a) / (1 + Σ N), where π' = softmax(logits + σ(completed q̂)) is the improved
//    policy: unvisited actions complete with the mixed value (the node's own estimate mixed with
//    the prior-weighted mean q of the visited ones).
//  - σ(q̂) = (c_visit + max_b N(b)) · c_scale · q̂, with q̂ the completed Q values of the node
//    rescaled to [0, 1] by their minimum and maximum.
//  - Q(s, a) = r(s, a) + V(s'), undiscounted (episodes are short and finite); V is the mean of
//    the returns backed up through a node, its first being the evaluator's estimate.
//  - Solved subtrees (MCTS-Solver, Winands et al. 2008), because the dynamics are exact: the end
//    of an episode is solved, and so is a node whose allowed children are all solved; its V is
//    then the best return below it, exactly, and the selection inside the tree passes over it.
//    So every simulation adds a state until the root is solved, and with as many simulations as
//    the tree has states the search has seen every episode (the tests' brute-force check).
//
// With a uniform prior and a zero value (uniform_evaluation), this is a plain search: the root is
// sequential halving over m uniformly drawn actions ranked by their mean return, and an interior
// node visits its unsolved actions in proportion to softmax(σ(q̂)), unvisited ones valued by the
// mean return of the visited ones.
//
// Masks hold at every node: only allowed actions are drawn, selected or expanded.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "base/rng.hpp"
#include "env/env.hpp"

namespace memplace::agents::planning {

// What the evaluator says about a state: a logit per action of the prior policy (entries of
// masked actions are ignored) and the return it expects from the state on.
struct PriorAndValue {
  std::vector<double> logits;
  double value = 0;
};
using Evaluator = std::function<PriorAndValue(const Env& state)>;

// Equal logits and a zero value: the search without a network.
PriorAndValue uniform_evaluation(const Env& state);

struct GumbelOptions {
  int simulations = 32;  // per decision, >= 1
  int considered = 16;   // m: actions drawn at the root, >= 1
  double c_visit = 50;   // σ's visit offset
  double c_scale = 0.1;  // σ's scale
  // Draw Gumbel noise at the root (acting and self-play); without it the root keeps the m
  // largest logits and the search is deterministic (evaluation).
  bool gumbel = true;
  // Every state is a complete solution (the sequential env after reset_to: the tensors not yet
  // placed have a place): the best state anywhere in the tree is reported, not only the best end
  // of an episode.
  bool complete_states = false;
};

// Throws std::invalid_argument naming the option out of range.
void check(const GumbelOptions& options);

struct SearchResult {
  std::int64_t action = -1;             // the action to play
  std::vector<double> improved_policy;  // softmax(logits + σ(completed q̂)) at the root
  std::vector<int> visits;              // per root action
  double root_value = 0;                // the root's mean backed-up return
  // The best complete state a simulation reached — an episode's end, or with complete_states any
  // state — its return from the root and the state (null when none was reached).
  double best_return = -std::numeric_limits<double>::infinity();
  std::unique_ptr<Env> best_state;
  std::uint64_t model_steps = 0;  // steps taken on cloned states (the search's simulator work)
  std::uint64_t evaluations = 0;  // evaluator calls
};

// Searches from `root` (not modified; it must be running, with a Discrete action and a mask).
// `rng` draws the root's Gumbel noise: the same state, options and rng state give the same result.
SearchResult gumbel_search(const Env& root, const Evaluator& evaluate, const GumbelOptions& options,
                           Rng& rng);

}  // namespace memplace::agents::planning
