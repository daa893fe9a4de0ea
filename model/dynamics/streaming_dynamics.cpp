// The streaming dynamics (cost model v1, docs/cost-model.md "Streaming"): a DMA prefetches what
// coming layers read from slow memories into free space of faster ones (streaming.hpp).
#include "model/dynamics/streaming.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"

namespace memplace {

namespace {

class StreamingDynamics final : public DynamicsModel {
 public:
  std::string_view name() const override { return "streaming"; }
  std::size_t cost_model() const override { return 1; }
  std::string_view summary() const override {
    return "streaming: a DMA prefetches reads into free faster memory (cost model v1)";
  }
  std::string_view compiler_name() const override { return "the streaming-aware compiler"; }
  bool runs_dma() const override { return true; }
  MoveEvaluation move_evaluation() const override { return MoveEvaluation::dma; }

  std::shared_ptr<const DynamicsPlan> compile(const Simulator& sim) const override {
    return std::make_shared<const detail::StreamingPlan>(detail::build_streaming_plan(sim));
  }
  void evaluate(const Simulator& sim, const DynamicsPlan& plan,
                std::span<const MemoryIndex> mapping, Evaluation& out,
                const AddressRequest&) const override {
    detail::evaluate_streaming(sim, static_cast<const detail::StreamingPlan&>(plan), mapping, out);
  }

  // The pinned greedy under each combination of staging reserves, scored under streaming.
  Mapping compiler_mapping(const Simulator& sim) const override {
    return best_over_reserves(sim, pinned_compiler_mapping, /*require_valid=*/false);
  }
  TimeFs lower_bound_fs(const Simulator& sim) const override { return dma_lower_bound_fs(sim); }
};

}  // namespace

const DynamicsModel& streaming_dynamics() {
  static const StreamingDynamics model;
  return model;
}

}  // namespace memplace
