// A workload: the layers of one network in schedule order, as a Boost.Graph DAG.
//
// Each layer owns two tensors that a mapping places: its weight tensor and its output activation.
// The file order of the layers is the schedule (a topological order); a tensor is live from its
// producer's step to its last consumer's step, and weights are pinned for the whole inference.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.hpp"

namespace memplace {

// The fixed op vocabulary (docs/workloads.md). Only used for features and reporting; the cost model
// reads macs, vector ops and bytes, never the op kind.
enum class OpKind : std::uint8_t {
  conv,
  depthwise_conv,
  matmul,
  gemm,
  pool,
  elementwise,
  norm,
  softmax,
  embedding,
  concat,
  other,
};
inline constexpr int kOpKindCount = 11;

std::string_view op_name(OpKind op);
std::optional<OpKind> op_from_name(std::string_view name);

// One data dependency: this layer reads `bytes` of the producer's output activation.
struct InputEdge {
  std::size_t producer = 0;  // index of an earlier layer
  std::int64_t bytes = 0;
  friend bool operator==(const InputEdge&, const InputEdge&) = default;
};

struct Layer {
  std::string name;
  OpKind op = OpKind::other;
  std::int64_t macs = 0;                  // multiply-accumulates per inference
  std::int64_t vector_ops = 0;            // elementwise / reduction operations per inference
  std::int64_t weight_bytes = 0;          // footprint of the weight tensor (pinned all inference)
  std::int64_t weight_traffic_bytes = 0;  // weight bytes read per inference (embedding: rows used)
  std::int64_t output_bytes = 0;          // output activation footprint and write traffic
  std::int64_t external_input_bytes = 0;  // bytes read from graph inputs (host data in DRAM)
  std::vector<InputEdge> inputs;          // producers are earlier layers, in input order
  friend bool operator==(const Layer&, const Layer&) = default;
};

// Element types by name, for the bytes every tensor element takes: int8 and fp8 1, fp16 and bf16
// 2, fp32 4 (an imported workload's element_bytes).
std::optional<int> element_type_bytes(std::string_view name);
std::vector<std::string> element_type_names();

// Provenance and conventions of a workload file; informational, not used by the cost model.
struct WorkloadInfo {
  std::string name;
  std::string description;
  std::string source;
  int element_bytes = 1;
  friend bool operator==(const WorkloadInfo&, const WorkloadInfo&) = default;
};

class Workload {
 public:
  struct EdgeBytes {
    std::int64_t bytes = 0;
  };
  // Vertex i is layer i; an edge producer -> consumer carries the bytes the consumer reads.
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                      boost::no_property, EdgeBytes>;

  // Validates everything (see validate()) and throws InputError naming `origin` on failure.
  Workload(WorkloadInfo info, std::vector<Layer> layers, std::string_view origin = "<memory>");

  // Parses a workload YAML document; `origin` names it in error messages.
  static Workload from_yaml(std::string_view text, std::string_view origin);
  static Workload load(const std::filesystem::path& path);
  std::string to_yaml() const;
  // Writes atomically (temporary file + rename).
  void save(const std::filesystem::path& path) const;

  const WorkloadInfo& info() const { return info_; }
  const std::string& name() const { return info_.name; }
  std::span<const Layer> layers() const { return layers_; }
  const Layer& layer(std::size_t i) const { return layers_.at(i); }
  std::size_t size() const { return layers_.size(); }
  std::size_t num_edges() const { return boost::num_edges(graph_); }
  const Graph& graph() const { return graph_; }

  // Index of the layer with this name, if any.
  std::optional<std::size_t> find(std::string_view name) const;
  // Schedule step of the last layer that reads layer i's output (i itself if none does).
  std::size_t last_use(std::size_t i) const { return last_use_[i]; }
  // Layers that read layer i's output, in schedule order (one entry per edge).
  std::span<const std::size_t> consumers(std::size_t i) const;

  std::int64_t total_macs() const;
  std::int64_t total_weight_bytes() const;
  std::int64_t total_output_bytes() const;
  // The largest sum of live output activations at any schedule step.
  std::int64_t peak_live_activation_bytes() const;

  friend bool operator==(const Workload& a, const Workload& b) {
    return a.info_ == b.info_ && a.layers_ == b.layers_;
  }

 private:
  WorkloadInfo info_;
  std::vector<Layer> layers_;
  Graph graph_;
  std::vector<std::size_t> last_use_;
  std::vector<std::size_t> consumer_offsets_;  // CSR over consumers_
  std::vector<std::size_t> consumers_;
};

// Finds a workload by name among the embedded ones ("resnet50"), the suites' workloads
// ("llama-3.2-1b-prefill-b1-s512"), the calibration sets' ("vgg16", docs/calibration.md) and the
// procedural ones ("procedural-cnn-s3", model/inputs/procedural.hpp) or, failing that, as a path.
Workload load_workload(std::string_view name_or_path);
// Names of the workloads compiled into the library (the shipped workloads/*.yaml).
std::vector<std::string> embedded_workload_names();
// The workloads of the EGRL paper's comparison, in its order.
std::vector<std::string> paper_workload_names();

}  // namespace memplace
