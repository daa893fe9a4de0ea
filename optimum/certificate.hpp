// Optimum certificates: the best mapping an exact solve found, with the bound that proves how good
// it is and how it was obtained, as a mapping file that `memplace evaluate` replays:
//
//   workload: bert-base
//   hardware: nnpi
//   result: {latency_fs: 1494398439004, valid: true, memory_time: max}
//   optimum:
//     status: optimal                # or gap_limit, time_limit, stopped
//     bound_fs: 1494398439004        # no valid mapping is faster
//     model: 9a3f...                 # fingerprint of the compiled cost model it was solved for
//     solver: {name: CBC 2.10.8, time_limit_s: 600, relative_gap: 0, threads: 1}
//     search: {seconds: 45.4, nodes: 1775, solver_objective_fs: 1494398439004}
//   layers: [...]
//
// The shipped certificates (workloads/optimum/<workload>.<hardware>.<rule>.yaml, compiled into the
// library) give `memplace references` and `info` their optimum rows; they apply only to the exact
// model they were solved for (same fingerprint), and are re-scored when read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "model/inputs/mapping.hpp"
#include "model/model_spec.hpp"
#include "model/simulator.hpp"
#include "optimum/solver.hpp"

namespace memplace::optimum {

struct Certificate {
  Status status = Status::optimal;
  Mapping mapping;
  TimeFs latency_fs = 0;  // of the mapping, by the simulator
  TimeFs bound_fs = 0;    // no valid mapping is faster
  MemoryTimeCombine memory_time = MemoryTimeCombine::max;
  std::uint64_t model = 0;  // model_fingerprint() of what was solved
  std::string solver;       // "CBC 2.10.8"
  double time_limit_s = 0;
  double relative_gap = 0;
  int threads = 1;
  double seconds = 0;
  std::int64_t nodes = 0;
  double solver_objective_fs = 0;

  bool proven() const { return status == Status::optimal; }
  // (latency − bound) / latency.
  double gap() const;
};

// A hash (FNV-1a, 64 bits) of everything the cost model computes with: capacities, per-tensor
// bytes and live ranges, every transfer and compute time, the memory-time rule. Names and
// descriptions do not enter it.
std::uint64_t model_fingerprint(const Simulator& sim);

// The certificate of a solution that found a mapping (throws std::invalid_argument otherwise).
Certificate make_certificate(const Simulator& sim, const Solution& solution,
                             const SolverOptions& options);

std::string certificate_yaml(const Simulator& sim, const Certificate& certificate);
// Writes atomically.
void save_certificate(const std::filesystem::path& path, const Simulator& sim,
                      const Certificate& certificate);

// Reads a certificate for this simulator and re-checks it: it must be for the same model
// (fingerprint) and memory-time rule, and its mapping must be valid and reproduce its latency.
// InputError (file, line, field) otherwise.
Certificate parse_certificate(std::string_view text, std::string_view origin, const Simulator& sim);

// "bert-base.nnpi.max": the shipped certificate's name for this simulator.
std::string certificate_name(const Simulator& sim);
// "memplace optimum my-net.yaml --hardware edge-tpu": the command that computes the certificate
// of the model as given (the workload's name or file, the chip, a memory-time rule set apart).
std::string optimum_command(const ModelSpec& model);
// The shipped certificate of this simulator's workload, hardware and rule, if there is one for
// exactly this model.
std::optional<Certificate> shipped_certificate(const Simulator& sim);

}  // namespace memplace::optimum
