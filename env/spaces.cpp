#include "env/spaces.hpp"

#include <cmath>
#include <stdexcept>

namespace memplace {

std::int64_t Discrete::sample(Rng& rng, std::span<const std::uint8_t> mask) const {
  if (n <= 0) throw std::invalid_argument(describe() + ": cannot sample from an empty space");
  if (mask.empty()) return static_cast<std::int64_t>(rng.uniform(static_cast<std::uint64_t>(n)));
  if (mask.size() != static_cast<std::size_t>(n)) {
    throw std::invalid_argument(describe() + ": mask has " + std::to_string(mask.size()) +
                                " entries, expected " + std::to_string(n));
  }
  std::uint64_t allowed = 0;
  for (std::uint8_t m : mask)
    allowed += m != 0;
  if (allowed == 0) throw std::invalid_argument(describe() + ": the mask allows no action");
  std::uint64_t pick = rng.uniform(allowed);
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (mask[i] != 0 && pick-- == 0) return static_cast<std::int64_t>(i);
  }
  return 0;  // unreachable
}

bool MultiDiscrete::contains(std::span<const std::int64_t> value) const {
  if (value.size() != nvec.size()) return false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] < 0 || value[i] >= nvec[i]) return false;
  }
  return true;
}

void MultiDiscrete::sample(Rng& rng, std::span<std::int64_t> out) const {
  if (out.size() != nvec.size()) {
    throw std::invalid_argument(describe() + ": output has " + std::to_string(out.size()) +
                                " entries");
  }
  for (std::size_t i = 0; i < nvec.size(); ++i) {
    out[i] = static_cast<std::int64_t>(rng.uniform(static_cast<std::uint64_t>(nvec[i])));
  }
}

std::vector<std::int64_t> MultiDiscrete::sample(Rng& rng) const {
  std::vector<std::int64_t> out(nvec.size());
  sample(rng, out);
  return out;
}

std::string MultiDiscrete::describe() const {
  // Uniform nvec (the usual case here) prints compactly: MultiDiscrete([3] * 748).
  bool uniform = !nvec.empty();
  for (std::int64_t v : nvec)
    uniform = uniform && v == nvec.front();
  if (uniform) {
    return "MultiDiscrete([" + std::to_string(nvec.front()) + "] * " + std::to_string(nvec.size()) +
           ")";
  }
  std::string out = "MultiDiscrete([";
  for (std::size_t i = 0; i < nvec.size(); ++i)
    out += (i ? ", " : "") + std::to_string(nvec[i]);
  return out + "])";
}

std::size_t Box::size() const {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return n;
}

bool Box::contains(std::span<const float> value) const {
  if (value.size() != size()) return false;
  for (float v : value) {
    if (!(v >= low && v <= high)) return false;  // false for NaN too
  }
  return true;
}

std::vector<float> Box::sample(Rng& rng) const {
  std::vector<float> out(size());
  for (float& v : out)
    v = low + static_cast<float>(rng.uniform01()) * (high - low);
  return out;
}

std::string Box::describe() const {
  std::string dims;
  for (std::size_t i = 0; i < shape.size(); ++i)
    dims += (i ? ", " : "") + std::to_string(shape[i]);
  return "Box(" + std::to_string(low) + ", " + std::to_string(high) + ", (" + dims + "), float32)";
}

std::string GraphSpace::describe() const {
  return "Graph(nodes " + std::to_string(num_nodes) + " x " + std::to_string(node_features) +
         " features in [" + std::to_string(low) + ", " + std::to_string(high) + "], edges 2 x " +
         std::to_string(num_edges) + ", action_mask " + std::to_string(mask_size) +
         (occupancy_shape[0] == 0 ? std::string()
                                  : ", occupancy " + std::to_string(occupancy_shape[0]) + " x " +
                                        std::to_string(occupancy_shape[1]) + " x " +
                                        std::to_string(occupancy_shape[2])) +
         ")";
}

std::string describe(const Space& space) {
  return std::visit([](const auto& s) { return s.describe(); }, space);
}

}  // namespace memplace
