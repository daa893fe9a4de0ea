// The shipped suite keeps what docs/suite.md promises: every instance leaves at least 10 % by its
// bound and has its best-known mapping; at least 24 instances are hard (the best known at least
// 10 % faster than the streaming-aware compiler), at least 3 on every shipped hardware model; both
// splits have hard instances.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"
#include "model/model_spec.hpp"
#include "optimum/headroom.hpp"
#include "tests/support/sanitized.hpp"

namespace memplace {
namespace {

TEST_CASE("suite v1: room on every instance, hard ones on every chip and in both splits") {
  const Suite suite = load_suite("v1");
  ModelSpec model;
  model.dynamics = default_dynamics(parse_version(suite.cost_model));
  std::map<std::string, int> hard_by_hardware;
  std::set<Split> splits;
  int hard = 0;
  for (std::size_t i = 0; i < suite.instances.size(); ++i) {
    if (!testing::in_sample(i)) continue;
    const SuiteInstance& instance = suite.instances[i];
    CAPTURE(instance.id());
    model.workload = instance.workload;
    model.hardware = instance.hardware;
    const optimum::Headroom headroom = optimum::headroom(model.build());
    CHECK(headroom.speedup(headroom.bound_fs) >= 1.10);
    REQUIRE(headroom.best_known);
    CHECK(headroom.best_known->source ==
          "workloads/best-known/" + instance.workload + "." + instance.hardware + ".yaml");
    const double gain = headroom.speedup(headroom.best_known->latency_fs);
    CHECK(gain >= 1.0);
    if (gain >= 1.10) {
      ++hard;
      ++hard_by_hardware[instance.hardware];
      splits.insert(suite.split(instance));
    }
  }
  if (testing::kSanitized) return;  // the counts are over every instance
  CHECK(hard >= 24);
  for (const std::string& hardware : embedded_hardware_names()) {
    CAPTURE(hardware);
    CHECK(hard_by_hardware[hardware] >= 3);
  }
  CHECK(splits.size() == 2);
}

}  // namespace
}  // namespace memplace
