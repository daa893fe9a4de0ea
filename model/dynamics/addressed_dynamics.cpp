// The addressed dynamics (cost model v2, docs/cost-model.md "Addresses"): streaming, where
// on-chip tensors and the DMA's staging buffers also need address ranges (addressed.hpp).
#include "allocation/packer.hpp"
#include "model/dynamics/addressed.hpp"
#include "model/dynamics/streaming.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"

namespace memplace {

namespace {

class AddressedDynamics final : public DynamicsModel {
 public:
  std::string_view name() const override { return "addressed"; }
  std::size_t cost_model() const override { return 2; }
  std::string_view summary() const override {
    return "addressed: v1 where on-chip tensors and DMA buffers need address ranges (cost model "
           "v2)";
  }
  std::string_view compiler_name() const override { return "the addressed compiler"; }
  bool runs_dma() const override { return true; }
  bool gives_addresses() const override { return true; }

  std::shared_ptr<const DynamicsPlan> compile(const Simulator& sim) const override {
    return std::make_shared<const detail::StreamingPlan>(detail::build_streaming_plan(sim));
  }
  void evaluate(const Simulator& sim, const DynamicsPlan& plan,
                std::span<const MemoryIndex> mapping, Evaluation& out,
                const AddressRequest& addresses) const override {
    detail::evaluate_addressed(sim, static_cast<const detail::StreamingPlan&>(plan), mapping, out,
                               addresses.layout, addresses.tensor_offsets);
  }

  // The best-fit compiler under each combination of staging reserves, keeping the results whose
  // addresses the evaluation's allocator finds too.
  Mapping compiler_mapping(const Simulator& sim) const override {
    return best_over_reserves(sim, addressed_compiler_mapping, /*require_valid=*/true);
  }
  std::optional<std::size_t> unplaceable_memory(
      const Simulator& sim, std::span<const MemoryIndex> mapping) const override {
    for (std::size_t m = 0; m < sim.slowest(); ++m) {
      if (detail::pack_memory(sim, mapping, m).outcome != allocation::SearchOutcome::packed)
        return m;
    }
    return std::nullopt;
  }
  TimeFs lower_bound_fs(const Simulator& sim) const override { return dma_lower_bound_fs(sim); }
};

}  // namespace

const DynamicsModel& addressed_dynamics() {
  static const AddressedDynamics model;
  return model;
}

}  // namespace memplace
