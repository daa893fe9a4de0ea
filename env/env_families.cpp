// Every environment family, in the order `memplace list` shows them. A new environment is one
// file that defines its EnvFamily (as env/single_step_env.cpp does) and one line here.
#include "env/registry.hpp"
#include "env/sequential_env.hpp"
#include "env/single_step_env.hpp"

namespace memplace {

std::span<const EnvFamily> env_families() {
  static const std::vector<EnvFamily> families = {single_step_family(), sequential_family(),
                                                  streaming_single_step_family(),
                                                  streaming_sequential_family()};
  return families;
}

}  // namespace memplace
