// The two implementations of the pinned evaluation (cost model v0).
//
// - scalar: a direct loop over layers and their inputs; portable, the readable reference.
// - vector: the same arithmetic on a structure-of-arrays plan, four layers per vector for the
//   latency pass and one memory per lane for the live-bytes sweep (GCC vector extensions, compiled
//   for AVX2 and chosen at run time when the CPU has it).
// Both are integer-exact, so they agree bit for bit (tests/model/test_evaluators_agree.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/dynamics.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/mapping.hpp"
#include "model/inputs/time.hpp"

namespace memplace {

class Simulator;
struct Evaluation;

namespace detail {

inline constexpr std::size_t kLanes = 4;  // layers per block of the vector kernel

struct EvaluationPlan : DynamicsPlan {
  std::size_t layers = 0;
  std::size_t memories = 0;
  std::size_t blocks = 0;  // ceil(layers / kLanes); padding lanes have zero times
  std::size_t slots = 0;   // input slots per layer: the largest in-degree (at least 1)

  // Block-major structure of arrays: [block][memory][lane] so a block's data is contiguous.
  std::vector<TimeFs> weight_fs;             // blocks x memories x lanes
  std::vector<TimeFs> output_fs;             // blocks x memories x lanes
  std::vector<TimeFs> input_fs;              // blocks x slots x memories x lanes (unused slots: 0)
  std::vector<TimeFs> external_fs;           // blocks x lanes (read from the slowest memory)
  std::vector<TimeFs> compute_fs;            // blocks x lanes
  std::vector<TimeFs> overhead_fs;           // blocks x lanes (0 on padding lanes)
  std::vector<std::int64_t> weight_bytes;    // blocks x lanes
  std::vector<std::uint32_t> weight_tensor;  // blocks x lanes: mapping index (padding: 0)
  std::vector<std::uint32_t> output_tensor;  // blocks x lanes
  std::vector<std::uint32_t> input_tensor;   // blocks x slots x lanes (unused: 0, zero time)

  // The live-bytes sweep as one stream: at each step the layer's output appears, then the outputs
  // whose last use is that step disappear. Peaks only rise when a tensor appears, so taking the
  // maximum after every event is exact.
  std::vector<std::uint32_t> event_tensor;  // mapping index of the activation
  std::vector<std::int64_t> event_delta;    // +bytes when it appears, -bytes when it dies
  std::vector<std::uint32_t> event_row;     // its step when it appears, `layers` when it dies
};

// What the streaming dynamics starts from, written by a pinned evaluation that asks for it.
struct StreamingStart {
  TimeFs* loads = nullptr;  // layers x memories: each layer's transfer time in each memory
  // (layers + 1) x kMaxMemories: the bytes in each memory at each step, pinned weights and the
  // activations live once the step's output exists (row `layers` is scratch). The sweep that
  // finds the peaks has them anyway, so the streaming evaluation need not count them again.
  std::int64_t* in_use = nullptr;
};

EvaluationPlan build_evaluation_plan(const Simulator& sim);

// With `start`, also writes what the streaming dynamics starts from there.
void evaluate_scalar(const Simulator& sim, const EvaluationPlan& plan,
                     std::span<const MemoryIndex> mapping, Evaluation& out,
                     const StreamingStart* start = nullptr);
// Returns false (and does nothing) when the CPU lacks AVX2 or the hardware has > 8 memories.
bool evaluate_vector(const Simulator& sim, const EvaluationPlan& plan,
                     std::span<const MemoryIndex> mapping, Evaluation& out,
                     const StreamingStart* start = nullptr);
// The pinned evaluation (the mapping unchecked): the vector kernel where it runs and the
// simulator does not ask for the scalar one, else the scalar; then overflow and validity.
void evaluate_pinned(const Simulator& sim, const EvaluationPlan& plan,
                     std::span<const MemoryIndex> mapping, Evaluation& out,
                     const StreamingStart* start = nullptr);

}  // namespace detail
}  // namespace memplace
