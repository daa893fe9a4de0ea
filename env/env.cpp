#include "env/env.hpp"

namespace memplace {

std::vector<std::pair<std::string, double>> EnvInfo::to_map() const {
  return {
      {"latency_fs", static_cast<double>(latency_fs)},
      {"latency_us", to_microseconds(latency_fs)},
      {"speedup", speedup},
      {"valid", valid ? 1.0 : 0.0},
      {"overflow_bytes", static_cast<double>(overflow_bytes)},
      {"rectified", rectified ? 1.0 : 0.0},
      {"demotions", static_cast<double>(demotions)},
      {"step", static_cast<double>(step)},
      {"replaced_action", replaced_action ? 1.0 : 0.0},
  };
}

}  // namespace memplace
