// The pinned dynamics (cost model v0, docs/cost-model.md): every tensor read from and written to
// its home while each layer runs alone. The evaluation is the Simulator's formula, in the
// kernels of evaluation_kernels.hpp.
#include "model/dynamics/evaluation_kernels.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"

namespace memplace {

namespace {

class PinnedDynamics final : public DynamicsModel {
 public:
  std::string_view name() const override { return "pinned"; }
  std::size_t cost_model() const override { return 0; }
  std::string_view summary() const override {
    return "pinned: every tensor read from its home while each layer runs alone (cost model v0)";
  }
  std::string_view compiler_name() const override { return "the pinned greedy"; }
  MoveEvaluation move_evaluation() const override { return MoveEvaluation::pinned; }

  std::shared_ptr<const DynamicsPlan> compile(const Simulator& sim) const override {
    return std::make_shared<const detail::EvaluationPlan>(detail::build_evaluation_plan(sim));
  }
  void evaluate(const Simulator& sim, const DynamicsPlan& plan,
                std::span<const MemoryIndex> mapping, Evaluation& out,
                const AddressRequest&) const override {
    detail::evaluate_pinned(sim, static_cast<const detail::EvaluationPlan&>(plan), mapping, out);
  }

  Mapping compiler_mapping(const Simulator& sim) const override {
    return pinned_compiler_mapping(sim);
  }
  TimeFs lower_bound_fs(const Simulator& sim) const override {
    return memplace::lower_bound_fs(sim);
  }
};

}  // namespace

const DynamicsModel& pinned_dynamics() {
  static const PinnedDynamics model;
  return model;
}

}  // namespace memplace
