#include "optimum/clp.hpp"

#include <CoinPackedMatrix.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace memplace::optimum {

double units_to_fs(double units, TimeFs constant_fs) {
  return units / kUnitsPerFs + static_cast<double>(constant_fs);
}

OsiClpSolverInterface load_into_clp(const MipFormulation& f) {
  OsiClpSolverInterface solver;
  const double infinity = solver.getInfinity();
  auto clamp = [&](std::vector<double> v) {
    for (double& x : v)
      x = std::isinf(x) ? std::copysign(infinity, x) : x;
    return v;
  };
  std::vector<CoinBigIndex> starts(f.row_start.begin(), f.row_start.end() - 1);
  std::vector<int> lengths;
  for (std::size_t r = 0; r < f.num_rows(); ++r)
    lengths.push_back(static_cast<int>(f.row_start[r + 1] - f.row_start[r]));
  const CoinPackedMatrix matrix(false, static_cast<int>(f.num_columns()),
                                static_cast<int>(f.num_rows()),
                                static_cast<CoinBigIndex>(f.row_value.size()), f.row_value.data(),
                                f.row_column.data(), starts.data(), lengths.data());
  const std::vector<double> column_upper = clamp(f.column_upper);
  const std::vector<double> row_lower = clamp(f.row_lower);
  const std::vector<double> row_upper = clamp(f.row_upper);
  solver.loadProblem(matrix, f.column_lower.data(), column_upper.data(), f.objective.data(),
                     row_lower.data(), row_upper.data());
  for (std::size_t c = 0; c < f.num_columns(); ++c) {
    if (f.integer[c]) solver.setInteger(static_cast<int>(c));
  }
  solver.messageHandler()->setLogLevel(0);
  return solver;
}

double solve_relaxation(const MipFormulation& f) {
  OsiClpSolverInterface solver = load_into_clp(f);
  for (std::size_t c = 0; c < f.num_columns(); ++c)
    solver.setContinuous(static_cast<int>(c));
  solver.initialSolve();
  if (!solver.isProvenOptimal()) {
    throw std::runtime_error("Clp did not solve the relaxation to optimality (" +
                             std::string(solver.isProvenPrimalInfeasible() ? "infeasible"
                                         : solver.isProvenDualInfeasible() ? "unbounded"
                                                                           : "stopped") +
                             ")");
  }
  return units_to_fs(solver.getObjValue(), f.constant_fs);
}

}  // namespace memplace::optimum
