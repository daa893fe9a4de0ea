#include "agents/planning/gumbel_search.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "base/portable_math.hpp"

namespace memplace::agents::planning {
namespace {

constexpr double kMasked = -std::numeric_limits<double>::infinity();

// A state of the tree: the environment after the step into it, what the evaluator said about it,
// and the statistics of the simulations through it.
struct Node {
  std::unique_ptr<Env> state;
  double reward = 0;  // of the step into it
  bool terminal = false;
  double estimate = 0;         // the evaluator's value (0 at the end of an episode)
  std::vector<double> logits;  // per action; kMasked where the mask forbids it
  std::vector<double> prior;   // softmax(logits), 0 where masked
  std::vector<int> child;      // per action: the node it leads to, or -1
  int visits = 0;              // simulations through it
  double return_sum = 0;       // their returns from this node on
  // Solved: every episode from here on has been seen (the end of an episode, or every allowed
  // child solved), and `exact` is the best return from here on.
  bool solved = false;
  double exact = 0;
  double mean() const { return return_sum / visits; }
  // What the search takes for the return from here on: exact once solved.
  double value() const { return solved ? exact : mean(); }
};

// Softmax of `logits` (kMasked entries get 0), with the exponential that gives the same bits on
// every CPU.
std::vector<double> softmax(const std::vector<double>& logits) {
  double top = kMasked;
  for (const double l : logits)
    top = std::max(top, l);
  std::vector<double> p(logits.size(), 0.0);
  double sum = 0;
  for (std::size_t a = 0; a < logits.size(); ++a)
    if (logits[a] != kMasked) sum += p[a] = portable::exp(logits[a] - top);
  for (double& x : p)
    x /= sum;
  return p;
}

// A Gumbel(0, 1) draw: -log(-log(u)) with u uniform in (0, 1).
double gumbel(Rng& rng) {
  const double u = (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
  return -portable::log(-portable::log(u));
}

class Tree {
 public:
  Tree(const Env& root, const Evaluator& evaluate, const GumbelOptions& options)
      : evaluate_(evaluate), options_(options) {
    nodes_.emplace_back();
    Node& node = nodes_.back();
    node.state = root.clone();
    describe(node);
    node.visits = 1;
    node.return_sum = node.estimate;
  }

  const Node& root() const { return nodes_[0]; }

  // One simulation whose first step is `action` at the root: down the tree to a new state (or to
  // a solved one), then its value backed up the path.
  void simulate(std::int64_t action) {
    path_.assign(1, 0);
    double path_reward = 0;
    int node = 0;
    for (;;) {
      int next = nodes_[node].child[action];
      const bool fresh = next < 0;
      if (fresh) next = expand(node, action);
      path_.push_back(next);
      path_reward += nodes_[next].reward;
      if (fresh && (nodes_[next].terminal || options_.complete_states) &&
          path_reward > result_.best_return) {
        result_.best_return = path_reward;
        result_.best_state = nodes_[next].state->clone();
      }
      if (fresh || nodes_[next].solved) break;
      node = next;
      action = interior_action(nodes_[node]);
    }
    double value =
        nodes_[path_.back()].solved ? nodes_[path_.back()].exact : nodes_[path_.back()].estimate;
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      Node& n = nodes_[*it];
      ++n.visits;
      n.return_sum += value;
      value += n.reward;
      if (!n.solved) settle(n);
    }
  }

  // σ(q̂) of every action of `node` (0 where masked): its completed Q values, rescaled to [0, 1]
  // by their range, times (c_visit + the most visits of a child) times c_scale.
  std::vector<double> transformed_q(const Node& node) const {
    const std::size_t k = node.logits.size();
    const std::vector<double>& prior = node.prior;
    // The mixed value of unvisited actions: the node's estimate with the prior-weighted mean Q of
    // the visited ones, weighted by the visits.
    double visited_prior = 0, weighted_q = 0;
    int child_visits = 0, most_visits = 0;
    for (std::size_t a = 0; a < k; ++a) {
      if (node.child[a] < 0) continue;
      const Node& c = nodes_[node.child[a]];
      child_visits += c.visits;
      most_visits = std::max(most_visits, c.visits);
      visited_prior += prior[a];
      weighted_q += prior[a] * (c.reward + c.value());
    }
    double mixed = node.estimate;
    if (child_visits > 0 && visited_prior > 0) {
      mixed = (node.estimate + child_visits * (weighted_q / visited_prior)) / (child_visits + 1);
    }
    std::vector<double> q(k, 0.0);
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (std::size_t a = 0; a < k; ++a) {
      if (node.logits[a] == kMasked) continue;
      q[a] =
          node.child[a] < 0 ? mixed : nodes_[node.child[a]].reward + nodes_[node.child[a]].value();
      low = std::min(low, q[a]);
      high = std::max(high, q[a]);
    }
    const double range = std::max(high - low, 1e-12);
    const double scale = (options_.c_visit + most_visits) * options_.c_scale;
    for (std::size_t a = 0; a < k; ++a)
      q[a] = node.logits[a] == kMasked ? 0.0 : scale * (q[a] - low) / range;
    return q;
  }

  // softmax(logits + σ(completed q̂)) at `node`.
  std::vector<double> improved_policy(const Node& node) const {
    std::vector<double> logits = node.logits;
    const std::vector<double> sigma = transformed_q(node);
    for (std::size_t a = 0; a < logits.size(); ++a)
      if (logits[a] != kMasked) logits[a] += sigma[a];
    return softmax(logits);
  }

  int child_visits(const Node& node, std::size_t a) const {
    return node.child[a] < 0 ? 0 : nodes_[node.child[a]].visits;
  }

  SearchResult take_result() { return std::move(result_); }

 private:
  // The evaluator's view of a new, running state; nothing to ask at the end of an episode.
  void describe(Node& node) {
    const ObservationView obs = node.state->observation();
    node.child.assign(obs.action_mask.size(), -1);
    node.logits.assign(obs.action_mask.size(), kMasked);
    if (node.terminal) {
      node.solved = true;  // nothing more to come: exact == 0
      return;
    }
    PriorAndValue pv = evaluate_(*node.state);
    ++result_.evaluations;
    if (pv.logits.size() != node.logits.size()) {
      throw std::invalid_argument("gumbel_search: the evaluator gave " +
                                  std::to_string(pv.logits.size()) + " logits for " +
                                  std::to_string(node.logits.size()) + " actions");
    }
    bool any = false;
    for (std::size_t a = 0; a < node.logits.size(); ++a)
      if (obs.action_mask[a] != 0) node.logits[a] = pv.logits[a], any = true;
    if (!any) {
      throw std::invalid_argument(
          "gumbel_search: a state allows no action (the episode has ended)");
    }
    node.estimate = pv.value;
    node.prior = softmax(node.logits);
  }

  int expand(int parent, std::int64_t action) {
    Node node;
    node.state = nodes_[parent].state->clone();
    const StepResult r = node.state->step(std::span(&action, 1));
    ++result_.model_steps;
    node.reward = r.reward;
    node.terminal = r.terminated || r.truncated;
    describe(node);
    nodes_.push_back(std::move(node));
    const int index = static_cast<int>(nodes_.size()) - 1;
    nodes_[parent].child[action] = index;
    return index;
  }

  // Marks `node` solved when every allowed child is (MCTS-Solver, Winands et al. 2008: the
  // dynamics are exact, so a fully seen subtree's best return is known, not estimated).
  void settle(Node& node) const {
    double best = kMasked;
    for (std::size_t a = 0; a < node.child.size(); ++a) {
      if (node.logits[a] == kMasked) continue;
      if (node.child[a] < 0 || !nodes_[node.child[a]].solved) return;
      const Node& c = nodes_[node.child[a]];
      best = std::max(best, c.reward + c.exact);
    }
    node.solved = true;
    node.exact = best;
  }

  // The paper's deterministic selection inside the tree: the allowed action whose share of the
  // visits lags its improved-policy probability most (ties: the lowest index), among those not
  // yet solved (a solved subtree has nothing left to show).
  std::int64_t interior_action(const Node& node) const {
    const std::vector<double> policy = improved_policy(node);
    int total = 0;
    for (std::size_t a = 0; a < node.child.size(); ++a)
      total += child_visits(node, a);
    std::int64_t best = -1;
    double best_score = kMasked;
    for (std::size_t a = 0; a < node.child.size(); ++a) {
      if (node.logits[a] == kMasked || (node.child[a] >= 0 && nodes_[node.child[a]].solved))
        continue;
      const double score = policy[a] - static_cast<double>(child_visits(node, a)) / (1 + total);
      if (best < 0 || score > best_score) best = static_cast<std::int64_t>(a), best_score = score;
    }
    if (best < 0) throw std::logic_error("gumbel_search: selecting in a solved node");
    return best;
  }

  const Evaluator& evaluate_;
  const GumbelOptions& options_;
  std::deque<Node> nodes_;  // a deque: references to nodes stay valid as the tree grows
  std::vector<int> path_;
  SearchResult result_;
};

}  // namespace

PriorAndValue uniform_evaluation(const Env& state) {
  return {std::vector<double>(state.observation().action_mask.size(), 0.0), 0.0};
}

void check(const GumbelOptions& options) {
  if (options.simulations < 1)
    throw std::invalid_argument("simulations must be >= 1, not " +
                                std::to_string(options.simulations));
  if (options.considered < 1)
    throw std::invalid_argument("considered must be >= 1, not " +
                                std::to_string(options.considered));
  if (!(options.c_visit >= 0) || !(options.c_scale >= 0))
    throw std::invalid_argument("c_visit and c_scale must be >= 0");
}

SearchResult gumbel_search(const Env& root, const Evaluator& evaluate, const GumbelOptions& options,
                           Rng& rng) {
  check(options);
  Tree tree(root, evaluate, options);
  const Node& top = tree.root();
  const std::size_t k = top.logits.size();

  // Gumbel top-m: the m largest g(a) + logits(a) among the allowed actions (ties: lowest index).
  std::vector<double> g(k, 0.0);
  std::vector<std::int64_t> remaining;
  for (std::size_t a = 0; a < k; ++a) {
    if (top.logits[a] == kMasked) continue;
    if (options.gumbel) g[a] = gumbel(rng);
    remaining.push_back(static_cast<std::int64_t>(a));
  }
  const auto base_score = [&](std::int64_t a) { return g[a] + top.logits[a]; };
  std::stable_sort(remaining.begin(), remaining.end(),
                   [&](std::int64_t a, std::int64_t b) { return base_score(a) > base_score(b); });
  remaining.resize(std::min(remaining.size(), static_cast<std::size_t>(options.considered)));

  // Sequential halving: ⌈log2 m⌉ phases share the simulations, each visiting every remaining
  // action equally often, then keeping the better half (never fewer than two) by
  // g + logits + σ(q̂); simulations left over after the last halving go on with the last two.
  const auto ranked = [&] {
    const std::vector<double> sigma = tree.transformed_q(top);
    std::stable_sort(remaining.begin(), remaining.end(), [&](std::int64_t a, std::int64_t b) {
      return base_score(a) + sigma[a] > base_score(b) + sigma[b];
    });
  };
  int phases = 0;
  while ((std::size_t{1} << phases) < remaining.size())
    ++phases;
  phases = std::max(phases, 1);
  int used = 0;
  while (used < options.simulations) {
    const int per_action =
        std::max(1, options.simulations / (phases * static_cast<int>(remaining.size())));
    for (int v = 0; v < per_action && used < options.simulations; ++v)
      for (const std::int64_t a : remaining) {
        if (used == options.simulations) break;
        tree.simulate(a);
        ++used;
      }
    ranked();
    if (remaining.size() > 2) remaining.resize((remaining.size() + 1) / 2);
  }
  ranked();

  SearchResult result = tree.take_result();
  result.action = remaining.front();
  result.improved_policy = tree.improved_policy(top);
  result.visits.resize(k);
  for (std::size_t a = 0; a < k; ++a)
    result.visits[a] = tree.child_visits(top, a);
  result.root_value = top.value();
  return result;
}

}  // namespace memplace::agents::planning
