#include "optimum/best_known.hpp"

#include <span>
#include <string_view>

#include "base/errors.hpp"
#include "model/inputs/embedded.hpp"
#include "model/mapping_io.hpp"

namespace memplace::optimum {

namespace {

// Considers every file of `files` named `prefix` exactly or `prefix` + "." + anything.
void consider(std::span<const EmbeddedFile> files, std::string_view folder,
              const std::string& prefix, const Simulator& sim, std::optional<KnownMapping>& best) {
  for (const EmbeddedFile& file : files) {
    const std::string_view name = file.name;
    if (name != prefix &&
        !(name.starts_with(prefix) && name.size() > prefix.size() && name[prefix.size()] == '.'))
      continue;
    const std::string origin = std::string(folder) + "/" + std::string(name) + ".yaml";
    try {
      MappingFile parsed = parse_mapping(file.text, origin, sim);
      const Evaluation eval = sim.evaluate(parsed.mapping);
      if (!eval.valid) continue;  // another capacity rule, or an edited model
      if (!best || eval.latency_fs < best->latency_fs)
        best = KnownMapping{std::move(parsed.mapping), eval.latency_fs, origin};
    } catch (const InputError&) {
      // The same names for another model (an edited workload): not a mapping of this one.
    }
  }
}

}  // namespace

std::optional<KnownMapping> best_shipped_mapping(const Simulator& sim) {
  const std::string prefix = sim.workload().name() + "." + sim.hardware().name;
  std::optional<KnownMapping> best;
  consider(embedded_certificates(), "workloads/optimum", prefix, sim, best);
  consider(embedded_best_known(), "workloads/best-known", prefix, sim, best);
  return best;
}

}  // namespace memplace::optimum
