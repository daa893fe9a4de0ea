#include "env/placement_context.hpp"

#include <atomic>

#include "model/references.hpp"

namespace memplace {

namespace {
std::atomic<std::size_t> contexts_made{0};
}  // namespace

std::size_t placement_contexts_made() {
  return contexts_made.load();
}

namespace {

std::shared_ptr<const PlacementContext> make_context(std::shared_ptr<const Simulator> sim,
                                                     ModelSpec model, ModelVersion version) {
  model.require_version(version);
  ++contexts_made;
  auto ctx = std::make_shared<PlacementContext>();
  ctx->model = std::move(model);
  ctx->version = version;
  ctx->graph = build_static_graph(*sim, ctx->streaming_features());
  const ReferenceLatencies references = reference_latencies(*sim);
  ctx->compiler_fs = references.compiler_fs;
  ctx->all_slowest_fs = references.all_slowest_fs;
  ctx->sim = std::move(sim);
  return ctx;
}

}  // namespace

std::shared_ptr<const PlacementContext> make_placement_context(const ModelSpec& model,
                                                               ModelVersion version) {
  model.require_version(version);
  return make_context(model.build_shared(), model, version);
}

std::shared_ptr<const PlacementContext> make_placement_context(std::shared_ptr<const Simulator> sim,
                                                               ModelVersion version) {
  ModelSpec model;
  model.workload = sim->workload().name();
  model.hardware = sim->hardware().name;
  model.memory_time = sim->memory_time();
  model.dynamics = sim->dynamics();
  if (version != ModelVersion::v0) model.lookahead = sim->hardware().dma.lookahead;
  return make_context(std::move(sim), std::move(model), version);
}

}  // namespace memplace
