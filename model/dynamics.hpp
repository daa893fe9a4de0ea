// A dynamics: what happens in time when a mapping runs (docs/cost-model.md). The mapping and its
// memory use are the same under every dynamics; what differs is how a layer's reads and writes
// turn into time (pinned: each from its home; streaming: a DMA prefetches into free faster memory;
// addressed: streaming where on-chip data also needs address ranges).
//
// Each dynamics lives behind DynamicsModel in a file of model/dynamics/ and is registered by one
// line in model/dynamics/registered.hpp; docs/architecture.md ("Adding a dynamics") walks through
// it. `Dynamics` is the small value that names one (in options, model specs and mapping files).
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/dynamics/registered.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"

namespace memplace {

class Simulator;
struct Evaluation;
struct AddressedLayout;
class DynamicsModel;

// A registered dynamics, by its place in the registry (the order of the cost models that brought
// them). The shipped three have names here because code that means one of them says so; any
// other is found by name (from_name).
class Dynamics {
 public:
  static const Dynamics pinned;     // cost model v0
  static const Dynamics streaming;  // cost model v1
  static const Dynamics addressed;  // cost model v2

  constexpr Dynamics() = default;  // pinned
  const DynamicsModel& model() const;
  std::string_view name() const;
  std::size_t index() const { return index_; }
  // Every registered dynamics, in registry order.
  static std::vector<Dynamics> all();
  static std::optional<Dynamics> from_name(std::string_view name);

  friend constexpr bool operator==(Dynamics, Dynamics) = default;
  friend constexpr auto operator<=>(Dynamics, Dynamics) = default;

 private:
  constexpr explicit Dynamics(std::uint8_t index) : index_(index) {}
  std::uint8_t index_ = 0;
};
inline constexpr Dynamics Dynamics::pinned{0};
inline constexpr Dynamics Dynamics::streaming{1};
inline constexpr Dynamics Dynamics::addressed{2};

std::string_view dynamics_name(Dynamics d);
std::optional<Dynamics> dynamics_from_name(std::string_view name);
// The registered dynamics' names, in registry order: the one list of them (the CLI's choices, the
// model spec's options, error messages).
std::vector<std::string> dynamics_names();
// Whether the dynamics runs a DMA (it then has the streaming plan, the lookahead option and the
// streaming bounds).
bool has_dma(Dynamics d);

// What a dynamics compiles once per simulator (each dynamics derives its own).
struct DynamicsPlan {
  virtual ~DynamicsPlan() = default;
};

// Addresses asked of an evaluation, under a dynamics that gives them: where everything went
// (`layout`), or the tensors' addresses given instead of the allocator's (`tensor_offsets`, one
// per tensor as AddressedLayout::tensor_offset: a valid packing, which the caller has checked).
struct AddressRequest {
  AddressedLayout* layout = nullptr;
  std::span<const std::int64_t> tensor_offsets;
  bool any() const { return layout != nullptr || !tensor_offsets.empty(); }
};

// How the incremental evaluator (model/dynamics/incremental_streaming.hpp) follows a move under a
// dynamics: the pinned evaluator's O(degree) update, the DMA's re-plan from the first change, or
// a full evaluation (exact for any dynamics, and as slow as one).
enum class MoveEvaluation : std::uint8_t { pinned, dma, full };

class DynamicsModel {
 public:
  virtual ~DynamicsModel() = default;

  // --- What it is called and where it belongs ---
  // Its name: the model spec's `dynamics` option, mapping files, the command line.
  virtual std::string_view name() const = 0;
  // The cost model that brought it (N of cm<N>, env version vN): the default dynamics of that
  // cost model, and a choice of the `dynamics` option from that cost model on.
  virtual std::size_t cost_model() const = 0;
  // One line for the `dynamics` option's help.
  virtual std::string_view summary() const = 0;
  // The compiler every speedup is over, as reports name it ("the pinned greedy").
  virtual std::string_view compiler_name() const = 0;

  // --- Facts the upper floors ask ---
  virtual bool runs_dma() const { return false; }
  // Whether on-chip tensors need address ranges (Simulator's evaluations with addresses).
  virtual bool gives_addresses() const { return false; }
  virtual MoveEvaluation move_evaluation() const { return MoveEvaluation::full; }

  // --- Evaluation ---
  // What the evaluation needs beyond the Simulator's arrays, built once.
  virtual std::shared_ptr<const DynamicsPlan> compile(const Simulator& sim) const = 0;
  // Fills `out` (latency, validity, peaks, overflow, layer times) for a checked mapping; the
  // request is empty unless gives_addresses().
  virtual void evaluate(const Simulator& sim, const DynamicsPlan& plan,
                        std::span<const MemoryIndex> mapping, Evaluation& out,
                        const AddressRequest& addresses) const = 0;

  // --- What a compiler does under it ---
  virtual Mapping compiler_mapping(const Simulator& sim) const = 0;
  // For rectify (model/rectify.hpp), once every memory's bytes fit: the fastest memory whose
  // tensors the dynamics still cannot place (no addresses for them), if any.
  virtual std::optional<std::size_t> unplaceable_memory(const Simulator& sim,
                                                        std::span<const MemoryIndex> mapping) const;
  // A latency no mapping beats under it (model/references.hpp: the reference lower bound).
  virtual TimeFs lower_bound_fs(const Simulator& sim) const = 0;
};

// Each registered dynamics' model, by the function of its file (the names of registered.hpp),
// for a floor above that keeps a part of a dynamics (optimum/dynamics_optimum.cpp).
#define MEMPLACE_DECLARE_DYNAMICS(function) const DynamicsModel& function();
MEMPLACE_DYNAMICS(MEMPLACE_DECLARE_DYNAMICS)
#undef MEMPLACE_DECLARE_DYNAMICS

}  // namespace memplace
