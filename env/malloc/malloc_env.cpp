#include "env/malloc/malloc_env.hpp"

#include <algorithm>
#include <stdexcept>

#include "allocation/gaps.hpp"
#include "model/dynamics/addressed.hpp"
#include "model/incremental.hpp"

namespace memplace {
namespace {

// Columns of the dynamic node features (docs/envs/malloc.md): the shared ones, then the offsets.
using namespace tensor_columns;
constexpr std::size_t kWeightOffset = 6;
constexpr std::size_t kActivationOffset = 7;
constexpr auto kMallocDynamicNames =
    tensor_columns::names_then<2>({"weight_offset", "activation_offset"});

std::vector<std::int64_t> on_chip_capacities(const Simulator& sim) {
  std::vector<std::int64_t> capacities;
  for (std::size_t m = 0; m + 1 < sim.num_memories(); ++m)
    capacities.push_back(sim.capacity(m));
  return capacities;
}

// Layer l's time under the pinned dynamics, from the mapping (O(in-degree)).
TimeFs pinned_layer_fs(const Simulator& sim, std::span<const MemoryIndex> mapping, std::size_t l) {
  std::array<TimeFs, kMaxMemories> transfers{};
  sim.add_transfer_fs(l, mapping, transfers.data());
  return sim.layer_time(l, transfers.data());
}

}  // namespace

std::shared_ptr<const MallocEnv::Setup> MallocEnv::make_setup(std::string id,
                                                              const PlacementContext& context,
                                                              const StepwiseOptions& options) {
  const Simulator& sim = *context.sim;
  std::vector<std::size_t> order = memplace::placement_order(sim, options.order);
  if (order.empty()) {
    throw InputError(id + ": workload '" + sim.workload().name() + "' has no tensor to place");
  }
  if (sim.num_memories() < 2) {
    throw InputError(id + ": hardware '" + sim.hardware().name +
                     "' has one memory: there is nothing to allocate");
  }
  // Unplaced tensors wait in the slowest memory, and the slowest memory is always an action: the
  // episode can always go on only if they all fit there.
  const IncrementalEvaluator all_slowest(sim);
  if (!all_slowest.valid()) {
    throw InputError(id + ": workload '" + sim.workload().name() + "' does not fit in " +
                     sim.hardware().memories.back().name + " (" +
                     std::to_string(all_slowest.total_overflow_bytes()) +
                     " bytes over) even with every tensor there");
  }
  const Mapping slowest = uniform_mapping(sim.num_layers(), sim.slowest());
  TimeFs pinned_fs = 0;
  for (std::size_t l = 0; l < sim.num_layers(); ++l)
    pinned_fs += pinned_layer_fs(sim, slowest, l);
  std::vector<float> dynamic(sim.num_layers() * kDynamicFeatures, 0.0f);
  for (std::size_t l = 0; l < sim.num_layers(); ++l) {
    dynamic[l * kDynamicFeatures + kWeightMemory] = 1.0f;
    dynamic[l * kDynamicFeatures + kActivationMemory] = 1.0f;
  }
  return std::make_shared<const Setup>(
      Setup{.id = std::move(id),
            .order = std::move(order),
            .memories = sim.num_memories() - 1,
            .potential_scale =
                static_cast<double>(context.all_slowest_fs) / static_cast<double>(pinned_fs),
            .pinned_fs = pinned_fs,
            .dynamic = std::move(dynamic),
            .grid = OccupancyGrid(sim.num_layers(), on_chip_capacities(sim))});
}

MallocEnv::MallocEnv(std::string id, std::shared_ptr<const PlacementContext> context,
                     StepwiseOptions options)
    : ctx_(std::move(context)),
      setup_(make_setup(std::move(id), *ctx_, options)),
      options_(options),
      arrays_({.tensors = ctx_->sim->num_tensors(),
               .actions = 1 + setup_->memories * kRulesPerMemory,
               .dynamic = setup_->dynamic.size(),
               .grid = grid_size(setup_->grid.shape()),
               .max_blocks = setup_->order.size()}) {
  restore_initial_state();
}

void MallocEnv::restore_initial_state() {
  std::ranges::fill(arrays_.mapping(), ctx_->sim->slowest());
  pinned_fs_ = setup_->pinned_fs;
  arrays_.clear_blocks();
  std::ranges::fill(arrays_.candidates(), -1);
  std::ranges::copy(setup_->dynamic, arrays_.dynamic().begin());
  std::ranges::fill(arrays_.grid(), 0.0f);
  std::ranges::fill(arrays_.mask(), 0);
}

Space MallocEnv::observation_space() const {
  const Simulator& sim = *ctx_->sim;
  GraphSpace space{sim.num_layers(),
                   ctx_->graph->num_features + kDynamicFeatures,
                   ctx_->graph->num_edges(),
                   arrays_.mask().size(),
                   0.0f,
                   1.0f};
  space.occupancy_shape = setup_->grid.shape();
  return space;
}

Space MallocEnv::action_space() const {
  return Discrete{static_cast<std::int64_t>(arrays_.mask().size())};
}

ObservationView MallocEnv::observation() const {
  ObservationView view;
  view.graph = ctx_->graph.get();
  view.owner = &ctx_->graph;
  view.dynamic = arrays_.dynamic();
  view.dynamic_features = kDynamicFeatures;
  view.dynamic_names = kMallocDynamicNames;
  view.action_mask = arrays_.mask();
  view.occupancy = arrays_.grid();
  view.occupancy_shape = setup_->grid.shape();
  return view;
}

MemoryIndex MallocEnv::candidate_memory(std::size_t a) const {
  if (a >= arrays_.candidates().size()) {
    throw std::out_of_range(id() + ": candidate " + std::to_string(a) + " out of range (0.." +
                            std::to_string(arrays_.candidates().size() - 1) + ")");
  }
  return a == 0 ? ctx_->sim->slowest() : static_cast<MemoryIndex>((a - 1) / kRulesPerMemory);
}

void MallocEnv::set_pointer(std::size_t tensor, float flag) {
  arrays_.dynamic()[tensor_layer(tensor) * kDynamicFeatures +
                    column(tensor, kWeightCurrent, kActivationCurrent)] = flag;
}

void MallocEnv::refresh_candidates() {
  const Simulator& sim = *ctx_->sim;
  const std::size_t tensor = setup_->order[cursor_];
  const std::int64_t bytes = sim.tensor_bytes(tensor);
  const auto first = static_cast<std::uint32_t>(sim.live_first(tensor));
  const auto last = static_cast<std::uint32_t>(sim.live_last(tensor));
  thread_local std::vector<allocation::Range> taken;
  const std::span<std::int64_t> candidates = arrays_.candidates();
  const std::span<std::uint8_t> mask = arrays_.mask();
  mask[0] = 1;
  for (std::size_t k = 0; k < setup_->memories; ++k) {
    taken.clear();
    for (const AddressBlock& b : arrays_.blocks(k))  // by offset, as gap_candidates wants them
      if (b.first <= last && b.last >= first)
        taken.emplace_back(b.offset, b.offset + sim.tensor_bytes(b.tensor));
    const auto offsets = allocation::gap_candidates(
        taken, bytes, sim.hardware().memories[k].alignment_bytes, sim.capacity(k));
    for (std::size_t r = 0; r < kRulesPerMemory; ++r) {
      const std::size_t a = 1 + k * kRulesPerMemory + r;
      candidates[a] = offsets[r];
      const bool repeats = std::find(offsets.begin(), offsets.begin() + static_cast<long>(r),
                                     offsets[r]) != offsets.begin() + static_cast<long>(r);
      mask[a] = offsets[r] >= 0 && !repeats ? 1 : 0;
    }
  }
}

void MallocEnv::place(std::size_t tensor, MemoryIndex m, std::int64_t offset) {
  const Simulator& sim = *ctx_->sim;
  const std::size_t row = tensor_layer(tensor) * kDynamicFeatures;
  const std::span<float> dynamic = arrays_.dynamic();
  dynamic[row + column(tensor, kWeightPlaced, kActivationPlaced)] = 1.0f;
  if (m == sim.slowest()) return;  // where it already counts
  const std::int64_t end = offset + sim.tensor_bytes(tensor);
  const auto first = static_cast<std::uint32_t>(sim.live_first(tensor));
  const auto last = static_cast<std::uint32_t>(sim.live_last(tensor));
  arrays_.insert_block(m, {offset, static_cast<std::uint32_t>(tensor), first, last});
  const TimeFs before = pinned_fs_of_layers_using(tensor);
  arrays_.mapping()[tensor] = m;
  pinned_fs_ += pinned_fs_of_layers_using(tensor) - before;
  setup_->grid.add(arrays_.grid(), m, offset, end, first, last);
  dynamic[row + column(tensor, kWeightMemory, kActivationMemory)] =
      static_cast<float>(m) / static_cast<float>(setup_->memories);
  dynamic[row + column(tensor, kWeightOffset, kActivationOffset)] =
      static_cast<float>(static_cast<double>(offset) / static_cast<double>(sim.capacity(m)));
}

TimeFs MallocEnv::pinned_fs_of_layers_using(std::size_t tensor) const {
  const Simulator& sim = *ctx_->sim;
  const std::size_t producer = tensor_layer(tensor);
  TimeFs sum = pinned_layer_fs(sim, arrays_.mapping(), producer);
  if (tensor_kind(tensor) == TensorKind::weight) return sum;
  for (const Simulator::Dependency& d : sim.out_edges(producer))  // each consumer once (merged)
    sum += pinned_layer_fs(sim, arrays_.mapping(), d.layer);
  return sum;
}

double MallocEnv::potential() const {
  return ctx_->speedup(1) / (static_cast<double>(pinned_fs_) * setup_->potential_scale);
}

std::vector<std::int64_t> MallocEnv::tensor_offsets() const {
  std::vector<std::int64_t> offsets(ctx_->sim->num_tensors(), -1);
  for (const AddressBlock& b : arrays_.all_blocks())
    offsets[b.tensor] = b.offset;
  return offsets;
}

TimeFs MallocEnv::final_latency() const {
  const Simulator& sim = *ctx_->sim;
  thread_local Evaluation out;
  if (sim.dynamics_model().gives_addresses()) {
    sim.evaluate_at_offsets(mapping(), tensor_offsets(), out);
  } else {
    sim.evaluate(mapping(), out);
  }
  if (!out.valid) {  // non-overlapping ranges below every capacity always fit
    throw std::logic_error(id() + ": the game's layout scored invalid (a bug: please report it)");
  }
  return out.latency_fs;
}

std::size_t MallocEnv::current_tensor() const {
  if (done_) throw std::logic_error(setup_->id + ": no tensor to place: the episode has ended");
  return setup_->order[cursor_];
}

ResetResult MallocEnv::reset(std::optional<std::uint64_t> seed) {
  if (seed) rng_.reseed(*seed);
  restore_initial_state();
  cursor_ = 0;
  done_ = false;
  set_pointer(setup_->order[0], 1.0f);
  refresh_candidates();
  info_ = EnvInfo{};
  info_.latency_fs = ctx_->all_slowest_fs;
  info_.speedup = ctx_->speedup(info_.latency_fs);
  potential_now_ = info_.speedup;  // potential() up to rounding: exact, so both rewards sum alike
  return {observation(), info_};
}

StepResult MallocEnv::step(std::span<const std::int64_t> action) {
  std::size_t slot =
      checked_discrete_action(id(), !done_, action, arrays_.mask().size(), "a candidate placement");
  const std::size_t tensor = setup_->order[cursor_];
  const std::span<const std::int64_t> candidates = arrays_.candidates();
  const bool replaced =
      arrays_.mask()[slot] == 0 && options_.masked_action == MaskedAction::fallback;
  if (replaced) slot = fallback_action(arrays_.mask(), slot);
  if (arrays_.mask()[slot] == 0) {
    const std::size_t k = (slot - 1) / kRulesPerMemory;
    throw std::invalid_argument(
        id() + ": action " + std::to_string(slot) + " is masked: the " +
        allocation::name_of(allocation::kGapRules[(slot - 1) % kRulesPerMemory]) + " offset in " +
        ctx_->sim->hardware().memories[k].name + " for the " +
        (tensor_kind(tensor) == TensorKind::weight ? "weight" : "activation") + " of layer '" +
        ctx_->sim->workload().layer(tensor_layer(tensor)).name + "' " +
        (candidates[slot] < 0 ? "does not exist (no free range holds it over its live range)"
                              : "repeats an earlier candidate"));
  }

  place(tensor, candidate_memory(slot), candidates[slot]);
  set_pointer(tensor, 0.0f);
  ++cursor_;

  const double before = potential_now_;
  const bool terminated = cursor_ == setup_->order.size();
  double reward = 0;
  if (terminated) {
    done_ = true;
    std::ranges::fill(arrays_.mask(), 0);
    info_.latency_fs = final_latency();
    info_.speedup = ctx_->speedup(info_.latency_fs);
    reward = options_.reward == RewardTiming::dense
                 ? info_.speedup - before
                 : info_.speedup - ctx_->speedup(ctx_->all_slowest_fs);
  } else {
    set_pointer(setup_->order[cursor_], 1.0f);
    refresh_candidates();
    potential_now_ = potential();
    info_.latency_fs =
        static_cast<TimeFs>(static_cast<double>(pinned_fs_) * setup_->potential_scale);
    info_.speedup = potential_now_;
    if (options_.reward == RewardTiming::dense) reward = potential_now_ - before;
  }
  info_.step = cursor_;
  info_.replaced_action = replaced;
  // Built whole, not zeroed first (as in SequentialEnv::step).
  return {.obs = observation(),
          .reward = reward,
          .terminated = terminated,
          .truncated = false,
          .info = info_};
}

OptionMap MallocEnv::options() const {
  return ctx_->options_with(options_.to_options());
}

EnvFamily malloc_family() {
  return family<MallocEnv, StepwiseOptions>(
      {.kind = "malloc",
       .description = "one tensor per step at an address: the malloc env (mallocGame)",
       .versions = {ModelVersion::v2},
       .own_option_specs = [] {
         return StepwiseOptions::specs(
             "each step's change in the potential, the last step settling on the score");
       }});
}

}  // namespace memplace
