// A mapping's tensors as allocation problems (model/tensor_allocation.hpp): the buffers are the
// tensors homed in the memory with their live ranges, so the problem's peak is the evaluation's
// peak; a packing found for them is a valid v1 placement of those bytes.
#include <doctest/doctest.h>

#include "allocation/packer.hpp"
#include "allocation/packing_check.hpp"
#include "base/rng.hpp"
#include "model/tensor_allocation.hpp"
#include "tests/support/toy.hpp"

namespace memplace {
namespace {

TEST_CASE("tensor allocation: the buffers of the chain toy, hand-written") {
  const Simulator chain(toy::chain(), toy::hardware());
  // All in the fast memory (index 0): three weights pinned over steps [0, 3), outputs A over
  // [0, 2), B over [1, 3), C over [2, 3) (as the memory profile test reads them).
  const allocation::Problem p = tensor_allocation_problem(chain, uniform_mapping(3, 0), 0);
  REQUIRE(p.buffers.size() == 6);
  CHECK(p.capacity == chain.capacity(0));
  for (const allocation::Buffer& b : p.buffers) {
    CAPTURE(b.id);
    if (b.id.ends_with(".weight")) {
      CHECK(b.lower == 0);
      CHECK(b.upper == 3);
    }
  }
  CHECK(p.buffers[1] == allocation::Buffer{chain.workload().layers()[0].name + ".output", 0, 2,
                                           chain.tensor_bytes(1)});
  CHECK(tensor_allocation_problem(chain, uniform_mapping(3, 1), 0).buffers.empty());
  CHECK_THROWS_AS(tensor_allocation_problem(chain, uniform_mapping(2, 0), 0),
                  std::invalid_argument);
}

TEST_CASE("tensor allocation: its peak is the evaluation's peak, and a packing fits the capacity") {
  const Simulator sim(toy::diamond(), toy::hardware());
  Rng rng(23);
  for (int trial = 0; trial < 200; ++trial) {
    Mapping m(sim.num_tensors());
    for (MemoryIndex& memory : m)
      memory = static_cast<MemoryIndex>(rng.uniform(sim.num_memories()));
    const Evaluation e = sim.evaluate(m);
    for (std::size_t k = 0; k < sim.num_memories(); ++k) {
      const allocation::Problem p = tensor_allocation_problem(sim, m, k);
      CHECK(allocation::peak_live_bytes(p.buffers) == e.peak_bytes[k]);
      const allocation::PackResult r = allocation::pack(p, {});
      // Packed only where v1 calls the memory's bytes valid (addresses only remove options).
      if (r.outcome == allocation::SearchOutcome::packed) {
        CHECK(e.overflow_bytes[k] == 0);
        CHECK(allocation::packing_faults(p, r.offsets).empty());
      } else {
        CHECK(r.outcome == allocation::SearchOutcome::infeasible);
      }
    }
  }
}

}  // namespace
}  // namespace memplace
