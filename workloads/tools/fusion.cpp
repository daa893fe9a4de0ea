#include "workloads/tools/fusion.hpp"

#include <algorithm>
#include <array>
#include <queue>
#include <set>
#include <stdexcept>
#include <string_view>

#include "workloads/tools/op_costs.hpp"

namespace memplace::onnx_import {

namespace {

constexpr std::size_t kMaxChainNodes = 16;

// Ops that may appear inside a GELU or a decomposed LayerNorm.
bool is_chain_op(std::string_view op) {
  constexpr std::array<std::string_view, 11> kChainOps = {
      "Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "Reciprocal", "Erf", "Tanh", "ReduceMean", "Neg"};
  return std::find(kChainOps.begin(), kChainOps.end(), op) != kChainOps.end();
}

class Fuser {
 public:
  Fuser(const Graph& g, const Folding& f) : g_(g), f_(f), group_of_(g.nodes.size(), -1) {}

  std::vector<Group> run(FusionPreset preset) {
    if (preset != FusionPreset::none) {
      fuse_chains();
      fuse_conv_epilogues();
    }
    for (std::size_t n = 0; n < g_.nodes.size(); ++n) {
      if (f_.kept[n] != 0 && group_of_[n] < 0)
        add_group({static_cast<int>(n)}, static_cast<int>(n));
    }
    if (preset != FusionPreset::none) fuse_pads();
    if (preset == FusionPreset::coarse) fold_into_producers();
    std::vector<Group> out;
    for (int gi : schedule())
      out.push_back(std::move(groups_[static_cast<std::size_t>(gi)]));
    return out;
  }

 private:
  const Node& node(int n) const { return g_.nodes[static_cast<std::size_t>(n)]; }
  bool free_node(int n) const {
    return f_.kept[static_cast<std::size_t>(n)] != 0 && group_of_[static_cast<std::size_t>(n)] < 0;
  }

  // Canonical run-time tensors a node reads, each once, in input order.
  std::vector<int> dynamic_inputs(const Node& n) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
      const int t = f_.input(n, i);
      if (t == kNoTensor || f_.is_static[static_cast<std::size_t>(t)] != 0) continue;
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
    return out;
  }

  int add_group(std::vector<int> nodes, int anchor, std::optional<OpKind> kind = std::nullopt,
                std::string rename = {}) {
    const int id = static_cast<int>(groups_.size());
    for (int n : nodes)
      group_of_[static_cast<std::size_t>(n)] = id;
    std::sort(nodes.begin(), nodes.end());
    groups_.push_back(Group{std::move(nodes), anchor, kind, std::move(rename)});
    alive_.push_back(1);
    return id;
  }

  // Moves every node of group `from` into group `into`.
  void merge(int from, int into) {
    Group& src = groups_[static_cast<std::size_t>(from)];
    Group& dst = groups_[static_cast<std::size_t>(into)];
    for (int n : src.nodes)
      group_of_[static_cast<std::size_t>(n)] = into;
    dst.nodes.insert(dst.nodes.end(), src.nodes.begin(), src.nodes.end());
    std::sort(dst.nodes.begin(), dst.nodes.end());
    src.nodes.clear();
    alive_[static_cast<std::size_t>(from)] = 0;
  }

  // --- GELU and decomposed LayerNorm: a closed elementwise region grown from one tensor x ---

  void fuse_chains() {
    for (std::size_t t = 0; t < g_.tensors.size(); ++t) {
      if (f_.canonical[t] == static_cast<int>(t) && f_.is_static[t] == 0)
        try_chain(static_cast<int>(t));
    }
  }

  // Grows the largest region of chain ops whose run-time inputs are x or the region's own outputs,
  // and keeps the longest prefix that is a GELU or a LayerNorm with exactly one escaping output.
  void try_chain(int x) {
    std::set<int> frontier;
    auto push_readers = [&](int t) {
      for (int n : f_.consumers[static_cast<std::size_t>(t)]) {
        if (free_node(n) && is_chain_op(node(n).op_type)) frontier.insert(n);
      }
    };
    push_readers(x);
    if (frontier.size() < 2) return;  // both GELU and LayerNorm read x twice
    std::vector<int> region;
    std::set<int> inside;  // region outputs
    std::size_t best = 0;
    std::optional<OpKind> best_kind;
    while (!frontier.empty() && region.size() < kMaxChainNodes) {
      const int n = *frontier.begin();
      frontier.erase(frontier.begin());
      const auto reads = dynamic_inputs(node(n));
      const bool qualifies = !reads.empty() && std::all_of(reads.begin(), reads.end(), [&](int t) {
        return t == x || inside.contains(t);
      });
      if (!qualifies) continue;
      region.push_back(n);
      for (int t : node(n).outputs) {
        inside.insert(t);
        push_readers(t);
      }
      if (auto kind = chain_kind(region, x); kind && escaping_outputs(region) == 1) {
        best = region.size();
        best_kind = kind;
      }
    }
    if (best < 2) return;
    region.resize(best);
    const bool norm = *best_kind == OpKind::norm;
    const auto anchor = std::find_if(region.begin(), region.end(), [&](int n) {
      const std::string& op = node(n).op_type;
      return norm ? op == "ReduceMean" : (op == "Erf" || op == "Tanh");
    });
    add_group(region, *anchor, best_kind, norm ? "LayerNorm" : "Gelu");
  }

  std::optional<OpKind> chain_kind(const std::vector<int>& region, int x) const {
    bool reduce = false, root = false, transcendental = false;
    int reads_of_x = 0;
    for (int n : region) {
      const std::string& op = node(n).op_type;
      reduce |= op == "ReduceMean";
      root |= op == "Sqrt" || op == "Reciprocal";
      transcendental |= op == "Erf" || op == "Tanh";
      const auto reads = dynamic_inputs(node(n));
      reads_of_x += static_cast<int>(std::count(reads.begin(), reads.end(), x));
    }
    if (reduce && root) return OpKind::norm;
    if (transcendental && reads_of_x >= 2) return OpKind::elementwise;  // x * Phi(x)
    return std::nullopt;
  }

  int escaping_outputs(const std::vector<int>& region) const {
    int count = 0;
    for (int n : region) {
      for (int t : node(n).outputs) {
        const auto& readers = f_.consumers[static_cast<std::size_t>(t)];
        const bool escapes = f_.is_output[static_cast<std::size_t>(t)] != 0 ||
                             std::any_of(readers.begin(), readers.end(), [&](int r) {
                               return std::find(region.begin(), region.end(), r) == region.end();
                             });
        count += escapes ? 1 : 0;
      }
    }
    return count;
  }

  // --- Conv + epilogue: BatchNorm, bias Add, activation, residual Add, activation ---

  enum Stage : std::uint8_t { kConv, kNorm, kBias, kAct, kResidual, kActAfterResidual };

  void fuse_conv_epilogues() {
    for (std::size_t c = 0; c < g_.nodes.size(); ++c) {
      const int conv = static_cast<int>(c);
      if (!free_node(conv)) continue;
      if (node(conv).op_type != "Conv" && node(conv).op_type != "ConvTranspose") continue;
      std::vector<int> members = {conv};
      Stage stage = kConv;
      int current = node(conv).outputs.front();
      while (stage != kActAfterResidual && f_.is_output[static_cast<std::size_t>(current)] == 0) {
        const auto& readers = f_.consumers[static_cast<std::size_t>(current)];
        if (readers.size() != 1 || !free_node(readers.front())) break;
        const int next = readers.front();
        const auto next_stage = epilogue_stage(node(next), current, conv, stage);
        if (!next_stage) break;
        members.push_back(next);
        stage = *next_stage;
        current = node(next).outputs.front();
      }
      add_group(members, conv);
    }
  }

  // The stage that `n` (reading `current`, the chain's value) would move the epilogue to.
  std::optional<Stage> epilogue_stage(const Node& n, int current, int conv, Stage stage) const {
    if (n.outputs.empty()) return std::nullopt;
    std::vector<int> others = dynamic_inputs(n);
    std::erase(others, current);
    const std::string& op = n.op_type;
    const bool reads_first = f_.input(n, 0) == current;
    if (op == "BatchNormalization" && reads_first && others.empty() && stage < kNorm) return kNorm;
    if (op == "Add" && others.empty() && stage < kBias) return kBias;
    if (is_activation_op(op) && reads_first && others.empty()) {
      if (stage < kAct) return kAct;
      if (stage == kResidual) return kActAfterResidual;
      return std::nullopt;
    }
    if (op == "Add" && others.size() == 1 && stage < kResidual) {
      // The other operand must be ready before the conv, or the fused layer would read a later one.
      const int producer = g_.tensors[static_cast<std::size_t>(others.front())].producer;
      if (producer < conv) return kResidual;
    }
    return std::nullopt;
  }

  // --- Pad: becomes part of the conv or pool that reads it (their padding attribute) ---

  void fuse_pads() {
    for (std::size_t p = 0; p < g_.nodes.size(); ++p) {
      const Node& pad = g_.nodes[p];
      if (f_.kept[p] == 0 || pad.op_type != "Pad" || pad.outputs.empty()) continue;
      const int out = pad.outputs.front();
      const auto& readers = f_.consumers[static_cast<std::size_t>(out)];
      if (readers.size() != 1 || f_.is_output[static_cast<std::size_t>(out)] != 0) continue;
      const std::string& op = node(readers.front()).op_type;
      if (op != "Conv" && op != "MaxPool" && op != "AveragePool" && op != "LpPool") continue;
      const int from = group_of_[p];
      const int into = group_of_[static_cast<std::size_t>(readers.front())];
      if (groups_[static_cast<std::size_t>(from)].nodes.size() == 1 && from != into)
        merge(from, into);
    }
  }

  // --- coarse: elementwise and data-movement layers join the latest layer they read ---

  OpKind kind_of(const Group& gr) const {
    if (gr.kind) return *gr.kind;
    const Node& a = node(gr.anchor);
    return op_kind(g_, a, f_.static_input(a, 0));
  }

  void fold_into_producers() {
    const std::vector<int> order = schedule();
    std::vector<int> position(groups_.size(), -1);
    for (std::size_t i = 0; i < order.size(); ++i) {
      position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
    }
    for (int gi : order) {
      const Group& gr = groups_[static_cast<std::size_t>(gi)];
      const OpKind kind = kind_of(gr);
      if (kind != OpKind::elementwise && kind != OpKind::other) continue;
      int target = -1;
      for (int n : gr.nodes) {
        for (int t : dynamic_inputs(node(n))) {
          const int producer = g_.tensors[static_cast<std::size_t>(t)].producer;
          if (producer < 0) continue;
          const int pg = group_of_[static_cast<std::size_t>(producer)];
          if (pg == gi) continue;
          if (target < 0 ||
              position[static_cast<std::size_t>(pg)] > position[static_cast<std::size_t>(target)]) {
            target = pg;
          }
        }
      }
      if (target >= 0) merge(gi, target);  // placed at the target's step: still topological
    }
  }

  // --- schedule: Kahn's algorithm over groups, earliest first node first ---

  std::vector<int> schedule() const {
    const std::size_t count = groups_.size();
    std::vector<std::set<int>> successors(count);
    std::vector<int> pending(count, 0);
    for (std::size_t gi = 0; gi < count; ++gi) {
      if (alive_[gi] == 0) continue;
      std::set<int> producers;
      for (int n : groups_[gi].nodes) {
        for (int t : dynamic_inputs(node(n))) {
          const int producer = g_.tensors[static_cast<std::size_t>(t)].producer;
          if (producer < 0) continue;
          const int pg = group_of_[static_cast<std::size_t>(producer)];
          if (pg != static_cast<int>(gi) && pg >= 0) producers.insert(pg);
        }
      }
      for (int pg : producers)
        successors[static_cast<std::size_t>(pg)].insert(static_cast<int>(gi));
      pending[gi] = static_cast<int>(producers.size());
    }
    using Entry = std::pair<int, int>;  // (first node, group)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    std::size_t alive = 0;
    for (std::size_t gi = 0; gi < count; ++gi) {
      if (alive_[gi] == 0) continue;
      ++alive;
      if (pending[gi] == 0) ready.emplace(groups_[gi].nodes.front(), static_cast<int>(gi));
    }
    std::vector<int> order;
    while (!ready.empty()) {
      const int gi = ready.top().second;
      ready.pop();
      order.push_back(gi);
      for (int s : successors[static_cast<std::size_t>(gi)]) {
        if (--pending[static_cast<std::size_t>(s)] == 0) {
          ready.emplace(groups_[static_cast<std::size_t>(s)].nodes.front(), s);
        }
      }
    }
    if (order.size() != alive) throw std::logic_error("onnx import: fusion created a cycle");
    return order;
  }

  const Graph& g_;
  const Folding& f_;
  std::vector<int> group_of_;
  std::vector<Group> groups_;
  std::vector<std::uint8_t> alive_;
};

}  // namespace

std::vector<Group> fuse(const Graph& g, const Folding& f, FusionPreset preset) {
  return Fuser(g, f).run(preset);
}

}  // namespace memplace::onnx_import
