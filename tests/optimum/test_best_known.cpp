// optimum/best_known.hpp and the shipped best-known mappings (workloads/best-known/): every
// file re-checks under the dynamics it records; the lookup re-scores every candidate under the
// asking simulator and returns the fastest (the optimum under v0, the best-known file under v1).
#include <doctest/doctest.h>

#include "model/inputs/embedded.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"
#include "model/inputs/workload.hpp"
#include "model/mapping_io.hpp"
#include "model/references.hpp"
#include "optimum/best_known.hpp"
#include "optimum/certificate.hpp"
#include "optimum/streaming_bound.hpp"
#include "tests/support/sanitized.hpp"

namespace memplace {
namespace {

Simulator shipped(const std::string& workload, Dynamics dynamics,
                  const std::string& hardware = "nnpi") {
  SimulatorOptions options;
  options.dynamics = dynamics;
  return Simulator(load_workload(workload), load_hardware(hardware), options);
}

TEST_CASE("best known: every shipped file is a valid mapping that reproduces its recorded result") {
  // One per shipped workload and hardware model, and one per instance of each shipped suite.
  std::size_t suite_instances = 0;
  for (const std::string& suite : embedded_suite_names())
    suite_instances += load_suite(suite).instances.size();
  REQUIRE(embedded_best_known().size() ==
          embedded_workload_names().size() * embedded_hardware_names().size() + suite_instances);
  const std::span<const EmbeddedFile> files = embedded_best_known();
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!testing::in_sample(i)) continue;
    const EmbeddedFile& file = files[i];
    const std::string origin = "workloads/best-known/" + std::string(file.name) + ".yaml";
    CAPTURE(origin);
    const MappingHeader header = read_mapping_header(file.text, origin);
    CHECK(header.model.dynamics == Dynamics::streaming);
    CHECK(std::string(file.name) == header.model.workload + "." + header.model.hardware);
    const Simulator sim =
        shipped(header.model.workload, Dynamics::streaming, header.model.hardware);
    REQUIRE(header.scored_like(sim));
    const MappingFile parsed = parse_mapping(file.text, origin, sim);
    REQUIRE(parsed.recorded);
    const Evaluation eval = sim.evaluate(parsed.mapping);
    CHECK(eval.valid);
    CHECK(eval.latency_fs == parsed.recorded->latency_fs);
    // At least as good as the streaming-aware compiler, and no better than the bound.
    const ReferenceLatencies r = reference_latencies(sim);
    CHECK(eval.latency_fs <= r.compiler_fs);
    CHECK(eval.latency_fs >= optimum::streaming_bound_fs(sim));
  }
}

TEST_CASE("best known: the lookup gives the optimum under v0 and the best-known file under v1") {
  const Simulator pinned = shipped("resnet50", Dynamics::pinned);
  const auto certificate = optimum::shipped_certificate(pinned);
  REQUIRE(certificate);
  const auto v0 = optimum::best_shipped_mapping(pinned);
  REQUIRE(v0);
  CHECK(v0->latency_fs == certificate->latency_fs);
  CHECK(v0->source.starts_with("workloads/optimum/resnet50.nnpi."));

  const Simulator streaming = shipped("bert-base", Dynamics::streaming);
  const auto v1 = optimum::best_shipped_mapping(streaming);
  REQUIRE(v1);
  CHECK(v1->source == "workloads/best-known/bert-base.nnpi.yaml");
  CHECK(v1->latency_fs == streaming.evaluate(v1->mapping).latency_fs);
  // Every certificate's optimum, scored under streaming, is no better.
  for (const EmbeddedFile& file : embedded_certificates()) {
    if (!std::string_view(file.name).starts_with("bert-base.nnpi.")) continue;
    const MappingFile c = parse_mapping(file.text, std::string(file.name), streaming);
    const Evaluation eval = streaming.evaluate(c.mapping);
    CHECK((!eval.valid || eval.latency_fs >= v1->latency_fs));
  }
}

}  // namespace
}  // namespace memplace
