// The GNN's dense products run on OpenBLAS through Eigen (EIGEN_USE_BLAS), single-threaded:
// memplace parallelises across models and samples instead (population members, rollouts), which
// keeps results independent of the thread count and avoids OpenBLAS threads competing with
// OpenMP's.
#pragma once

namespace memplace::nn {

// Sets OpenBLAS to one thread, once per process (every Gnn constructor calls it).
void use_single_threaded_blas();

}  // namespace memplace::nn
