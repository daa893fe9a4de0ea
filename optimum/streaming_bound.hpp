// A capacity-aware lower bound on latency under the streaming dynamics (docs/cost-model.md,
// "A certified bound"): the optimum of a linear program that every valid mapping's streaming
// evaluation satisfies, solved by Clp. It certifies how far the best mapping found can be from
// the optimum, where the capacity-free, slowest-port and compute bounds are far too loose.
//
// Columns (all continuous):
//   x(t, m) in [0, 1]     the share of tensor t homed in memory m
//   y(r, h, s) in [0, 1]  the share of read r, homed in h, that is read from a buffer in a
//                         staging memory s faster than h (what was copied, if the layer used it)
//   T(l) >= compute(l)    layer l's time without its overhead (the objective: sum T + overheads)
//   I(l, p) >= 0          port p's idle time in layer l (ports: each memory under `max`, one
//                         shared path under `sum`)
//   C(b, p) >= 0          port p's idle time in layers 0..b left after the DMA work of every copy
//                         read by layer b + 1
//   W(m)                  the weights' share of memory m's capacity
// Rows:
//   assignment  sum_m x(t, m) = 1
//   staging     sum_s y(r, h, s) <= x(t, h): only what is homed in h is copied from h
//   idle        I(l, p) = T(l) - load(l, p); a staged share moves from the home port's load to
//               the staging port's, at that memory's time (so T(l) >= every port's load)
//   port        C(b, p) = C(b - 1, p) + I(b, p) (+ the overhead, if the DMA runs through it)
//               - the DMA work of the copies read by layer b + 1 (home port: the home's time,
//               staging port: the staging memory's, `sum`: both on the one path); and over the
//               lookahead window before each reading layer k, the idle time covers the work of
//               the copies whose window lies in it
//   capacity    W(m) + live activations + buffers <= capacity(m) at every step, a buffer counted
//               at its reader's step and the step before (a copy is issued a layer ahead at least)
// A valid mapping's evaluation gives a feasible point with objective at most its latency (x its
// placement, y the progress of the copies its layers used, T and I its layer times; staged reads
// cost at least their exact share, copies take no more than the idle time of their window, and
// their buffers take no less than y of the room). What the relaxation leaves out — the order in
// which copies take idle time, the candidate test, whole buffers, integral placement — only
// constrains the evaluator further, so the LP optimum is a lower bound. Clp's answer is lowered
// by a relative 1e-6 against its tolerances before it is rounded down to femtoseconds.
#pragma once

#include <span>

#include "model/inputs/mapping.hpp"
#include "model/simulator.hpp"
#include "optimum/formulation.hpp"

namespace memplace::optimum {

// The program above; x binary when `integral` (the MIP `solve` runs under streaming: its optimum
// is a bound, its mappings candidates), x fixed when `fixed` is a mapping.
MipFormulation build_streaming_relaxation(const Simulator& sim,
                                          std::span<const MemoryIndex> fixed = {},
                                          bool integral = false);

// No valid mapping is faster under sim's streaming dynamics. Throws std::invalid_argument for a
// pinned simulator, std::runtime_error if Clp fails (an infeasible relaxation: no valid mapping).
TimeFs streaming_bound_fs(const Simulator& sim);
// The same with x fixed to `mapping`: a lower bound on that mapping's streaming latency (tests
// check it against the evaluation). Throws std::runtime_error for an invalid mapping.
TimeFs streaming_bound_fs(const Simulator& sim, std::span<const MemoryIndex> mapping);

}  // namespace memplace::optimum
