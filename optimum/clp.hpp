// A formulation handed to COIN-OR: loaded into Clp (which CBC's search starts from), and its
// linear relaxation solved. The MIP search itself is solver.hpp's.
#pragma once

#include <OsiClpSolverInterface.hpp>

#include "model/inputs/time.hpp"
#include "optimum/formulation.hpp"

namespace memplace::optimum {

// A solver's objective (units of 1 / kUnitsPerFs femtoseconds) in femtoseconds, with the
// formulation's constant.
double units_to_fs(double units, TimeFs constant_fs);

// The formulation as a Clp problem, its integer columns marked, logging off.
OsiClpSolverInterface load_into_clp(const MipFormulation& f);

// The optimum of a formulation's linear relaxation (integrality dropped) in femtoseconds, its
// constant included, by Clp's dual simplex. Throws std::runtime_error unless Clp proves it optimal.
double solve_relaxation(const MipFormulation& f);

}  // namespace memplace::optimum
