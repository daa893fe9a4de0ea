#include "model/simulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"

namespace memplace {

std::int64_t Evaluation::total_overflow_bytes() const {
  std::int64_t total = 0;
  for (std::int64_t o : overflow_bytes)
    total += o;
  return total;
}

namespace {

// Every time is a sum of int64 femtoseconds (inputs/time.hpp). A mapping's latency is at most
// every layer's overhead and compute plus all its bytes moved through every memory once (streaming
// copies read one memory and write another; the addressed dynamics move no more); with a margin
// of 16 for whatever sums a dynamics adds on top, this worst case must fit an int64: about 576 s.
// Inference is far below (the slowest shipped case, the suite's mobilenet-v3-large-b64 on
// edge-tpu, takes about a second); what passes it is a size or a bandwidth in the wrong unit.
void check_time_range(const Workload& workload, const Hardware& hardware) {
  constexpr long double kMaxSeconds =
      static_cast<long double>(std::numeric_limits<TimeFs>::max()) / 16 / kFsPerSecond;
  long double per_byte = 0;  // seconds to move a byte through every memory
  for (const Memory& mem : hardware.memories)
    per_byte += 1.0L / mem.bandwidth_bytes_per_s;
  long double total = 0, slowest = -1;
  std::size_t slowest_layer = 0;
  for (std::size_t l = 0; l < workload.size(); ++l) {
    const Layer& layer = workload.layers()[l];
    long double bytes = static_cast<long double>(layer.weight_bytes) + layer.weight_traffic_bytes +
                        layer.output_bytes + layer.external_input_bytes;
    for (const InputEdge& e : layer.inputs)
      bytes += static_cast<long double>(e.bytes);
    const long double seconds =
        hardware.layer_overhead_s + static_cast<long double>(layer.macs) / hardware.mac_rate() +
        static_cast<long double>(layer.vector_ops) / hardware.vector_ops_per_s + bytes * per_byte;
    total += seconds;
    if (seconds > slowest) slowest = seconds, slowest_layer = l;
  }
  if (total <= kMaxSeconds) return;
  auto seconds_text = [](long double t) {
    std::ostringstream out;
    out << std::setprecision(3) << static_cast<double>(t) << " s";
    return out.str();
  };
  throw InputError("workload '" + workload.name() + "' on hardware '" + hardware.name +
                   "': a mapping could take up to " + seconds_text(total) + " (layer '" +
                   workload.layers()[slowest_layer].name + "' alone " + seconds_text(slowest) +
                   "), beyond the " + seconds_text(kMaxSeconds) +
                   " the simulator's femtosecond clock can count; is a size or a bandwidth "
                   "in the wrong unit?");
}

}  // namespace

Simulator::Simulator(Workload workload, Hardware hardware, SimulatorOptions options)
    : workload_(std::move(workload)),
      hardware_(std::move(hardware)),
      combine_(options.memory_time.value_or(hardware_.memory_time)),
      dynamics_(options.dynamics),
      allocation_placements_(options.allocation_placements),
      num_layers_(workload_.size()),
      num_memories_(hardware_.num_memories()),
      scalar_kernel_(options.scalar_kernel),
      model_(&options.dynamics.model()) {
  hardware_.validate(hardware_.name);
  check_time_range(workload_, hardware_);
  const std::size_t n = num_layers_;
  const std::size_t m_count = num_memories_;
  const std::span<const Layer> layers = workload_.layers();

  overhead_fs_ = static_cast<TimeFs>(std::ceil(hardware_.layer_overhead_s * kFsPerSecond));
  for (const Memory& mem : hardware_.memories)
    capacity_.push_back(mem.capacity_bytes);

  tensor_bytes_.resize(2 * n);
  compute_fs_.resize(n);
  weight_fs_.resize(n * m_count);
  output_fs_.resize(n * m_count);
  external_fs_.resize(n);
  for (std::size_t l = 0; l < n; ++l) {
    const Layer& layer = layers[l];
    tensor_bytes_[tensor_id(l, TensorKind::weight)] = layer.weight_bytes;
    tensor_bytes_[tensor_id(l, TensorKind::activation)] = layer.output_bytes;
    compute_fs_[l] = duration_fs(layer.macs, hardware_.mac_rate()) +
                     duration_fs(layer.vector_ops, hardware_.vector_ops_per_s);
    external_fs_[l] =
        duration_fs(layer.external_input_bytes, hardware_.memories.back().bandwidth_bytes_per_s);
    for (std::size_t m = 0; m < m_count; ++m) {
      const double bw = hardware_.memories[m].bandwidth_bytes_per_s;
      weight_fs_[l * m_count + m] = duration_fs(layer.weight_traffic_bytes, bw);
      output_fs_[l * m_count + m] = duration_fs(layer.output_bytes, bw);
    }
  }

  // Merge parallel edges (a layer reading the same producer twice) into one dependency, so that
  // moving a producer's output touches each consumer once.
  in_offsets_.assign(n + 1, 0);
  std::vector<std::map<std::size_t, std::int64_t>> merged(n);  // consumer -> producer -> bytes
  for (std::size_t l = 0; l < n; ++l) {
    for (const InputEdge& e : layers[l].inputs)
      merged[l][e.producer] += e.bytes;
  }
  for (std::size_t l = 0; l < n; ++l) {
    for (const auto& [producer, bytes] : merged[l]) {
      const std::size_t index = in_.size();
      in_.push_back(Dependency{producer, index});
      for (std::size_t m = 0; m < m_count; ++m) {
        read_fs_.push_back(duration_fs(bytes, hardware_.memories[m].bandwidth_bytes_per_s));
      }
    }
    in_offsets_[l + 1] = in_.size();
  }
  out_offsets_.assign(n + 1, 0);
  for (const Dependency& d : in_)
    ++out_offsets_[d.layer + 1];
  for (std::size_t l = 0; l < n; ++l)
    out_offsets_[l + 1] += out_offsets_[l];
  out_.resize(in_.size());
  std::vector<std::size_t> fill(out_offsets_.begin(), out_offsets_.end() - 1);
  for (std::size_t consumer = 0; consumer < n; ++consumer) {
    for (const Dependency& d : in_edges(consumer)) {
      out_[fill[d.layer]++] = Dependency{consumer, d.index};
    }
  }

  plan_ = model_->compile(*this);
}

std::size_t Simulator::live_first(std::size_t tensor) const {
  return tensor_kind(tensor) == TensorKind::weight ? 0 : tensor_layer(tensor);
}

std::size_t Simulator::live_last(std::size_t tensor) const {
  return tensor_kind(tensor) == TensorKind::weight ? num_layers_ - 1
                                                   : workload_.last_use(tensor_layer(tensor));
}

std::span<const Simulator::Dependency> Simulator::in_edges(std::size_t layer) const {
  return std::span<const Dependency>(in_).subspan(in_offsets_[layer],
                                                  in_offsets_[layer + 1] - in_offsets_[layer]);
}

std::span<const Simulator::Dependency> Simulator::out_edges(std::size_t layer) const {
  return std::span<const Dependency>(out_).subspan(out_offsets_[layer],
                                                   out_offsets_[layer + 1] - out_offsets_[layer]);
}

void Simulator::check_mapping(std::span<const MemoryIndex> mapping) const {
  if (mapping.size() != num_tensors()) {
    throw std::invalid_argument("mapping has " + std::to_string(mapping.size()) +
                                " entries; workload '" + workload_.name() + "' needs " +
                                std::to_string(num_tensors()) +
                                " (2 per layer: weight, activation)");
  }
  MemoryIndex worst = 0;
  for (MemoryIndex m : mapping)
    worst = std::max(worst, m);
  if (worst < num_memories_) return;
  for (std::size_t t = 0; t < mapping.size(); ++t) {
    if (mapping[t] >= num_memories_) {
      throw std::invalid_argument("mapping entry " + std::to_string(t) + " (" +
                                  (tensor_kind(t) == TensorKind::weight ? "weight" : "activation") +
                                  " of layer '" + workload_.layer(tensor_layer(t)).name +
                                  "') is memory " + std::to_string(mapping[t]) + "; hardware '" +
                                  hardware_.name + "' has memories 0.." +
                                  std::to_string(num_memories_ - 1));
    }
  }
}

Evaluation Simulator::evaluate(std::span<const MemoryIndex> mapping) const {
  Evaluation out;
  evaluate(mapping, out);
  return out;
}

void Simulator::evaluate(std::span<const MemoryIndex> mapping, Evaluation& out) const {
  check_mapping(mapping);
  model_->evaluate(*this, *plan_, mapping, out, {});
}

namespace {

void require_addresses(const DynamicsModel& model) {
  if (!model.gives_addresses()) {
    throw std::invalid_argument("the " + std::string(model.name()) +
                                " dynamics gives no addresses; evaluate with addresses under the "
                                "addressed dynamics (cost model v2)");
  }
}

}  // namespace

void Simulator::evaluate(std::span<const MemoryIndex> mapping, Evaluation& out,
                         AddressedLayout& layout) const {
  require_addresses(*model_);
  check_mapping(mapping);
  model_->evaluate(*this, *plan_, mapping, out, {.layout = &layout, .tensor_offsets = {}});
}

void Simulator::evaluate_at_offsets(std::span<const MemoryIndex> mapping,
                                    std::span<const std::int64_t> tensor_offsets,
                                    Evaluation& out) const {
  require_addresses(*model_);
  check_mapping(mapping);
  if (tensor_offsets.size() != mapping.size()) {
    throw std::invalid_argument("tensor offsets: " + std::to_string(tensor_offsets.size()) +
                                " given for " + std::to_string(mapping.size()) + " tensors");
  }
  model_->evaluate(*this, *plan_, mapping, out, {.tensor_offsets = tensor_offsets});
}

}  // namespace memplace
