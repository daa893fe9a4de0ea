// Every environment family, in the order `memplace list` shows them. A family is one file that
// defines `EnvFamily <name>()` (env/single_step_env.cpp's single_step_family, say) and one line
// in the list below; the registry makes its ids, `memplace list` and the Python package list
// them, and the shared conformance test checks them (docs/envs/README.md, "Adding an
// environment").
#include "env/registry.hpp"

namespace memplace {

// The list: one line per family, a new one above the closing comment. (A list macro, so that a
// name written once is both declared and listed.)
#define MEMPLACE_ENV_FAMILIES(FAMILY) \
  FAMILY(single_step_family)          \
  FAMILY(sequential_family)           \
  FAMILY(malloc_family)               \
  /* end of the list */

#define MEMPLACE_DECLARE(name) EnvFamily name();
MEMPLACE_ENV_FAMILIES(MEMPLACE_DECLARE)
#undef MEMPLACE_DECLARE

std::span<const EnvFamily> env_families() {
#define MEMPLACE_MAKE(name) name(),
  static const std::vector<EnvFamily> families = {MEMPLACE_ENV_FAMILIES(MEMPLACE_MAKE)};
#undef MEMPLACE_MAKE
  return families;
}

}  // namespace memplace
