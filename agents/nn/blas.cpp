#include "agents/nn/blas.hpp"

#include <mutex>

extern "C" void openblas_set_num_threads(int num_threads);

namespace memplace::nn {

void use_single_threaded_blas() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

}  // namespace memplace::nn
