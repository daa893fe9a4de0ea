#include "python/bindings/observation_arrays.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "model/inputs/time.hpp"

namespace memplace::python {

namespace {

// Dict keys, made once: building them at every step would cost more than the step.
struct Keys {
  py::str nodes{"nodes"}, edge_links{"edge_links"}, edge_index{"edge_index"},
      node_state{"node_state"}, action_mask{"action_mask"}, occupancy{"occupancy"};
  py::str latency_fs{"latency_fs"}, latency_us{"latency_us"}, speedup{"speedup"}, valid{"valid"},
      overflow_bytes{"overflow_bytes"}, rectified{"rectified"}, demotions{"demotions"},
      step{"step"}, replaced_action{"replaced_action"};
};

const Keys& keys() {
  // Made with the GIL held on first use and deliberately never destroyed: Python objects must
  // not be released after the interpreter has finalised.
  static const Keys* const k = new Keys();
  return *k;
}

template <typename T>
py::array_t<T> read_only_copy(std::span<const T> values, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(std::move(shape));
  if (!values.empty()) std::memcpy(out.mutable_data(), values.data(), values.size_bytes());
  make_read_only(out);
  return out;
}

std::span<const std::int8_t> as_int8(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const std::int8_t*>(bytes.data()), bytes.size()};
}

// A view of `base` with a leading axis of `copies` that repeats it (stride 0): no copy.
py::array broadcast(const py::array& base, std::size_t copies) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(copies)};
  std::vector<py::ssize_t> strides{0};
  for (py::ssize_t d = 0; d < base.ndim(); ++d) {
    shape.push_back(base.shape(d));
    strides.push_back(base.strides(d));
  }
  // The base is read-only, and the view inherits that.
  return py::array(base.dtype(), shape, strides, base.data(), base);
}

}  // namespace

ObservationLayout observation_layout(const std::string& name) {
  if (name == "graph") return ObservationLayout::graph;
  if (name == "flat") return ObservationLayout::flat;
  throw py::value_error("observation='" + name + "': expected graph or flat");
}

ObservationArrays::ObservationArrays(const ObservationView& obs, ObservationLayout layout)
    : flat_(layout == ObservationLayout::flat) {
  const StaticGraph& graph = *obs.graph;
  const std::vector<py::ssize_t> nodes_shape = shape(graph.num_nodes, graph.num_features);
  if (obs.owner != nullptr) {
    // The array keeps the static graph alive through a capsule holding a shared_ptr to it.
    auto owner = std::make_unique<std::shared_ptr<const StaticGraph>>(*obs.owner);
    py::capsule keep_alive(
        owner.get(), [](void* p) { delete static_cast<std::shared_ptr<const StaticGraph>*>(p); });
    owner.release();  // now owned by the capsule
    nodes_ = py::array_t<float>(nodes_shape, graph.nodes.data(), keep_alive);
  } else {
    nodes_ = py::array_t<float>(nodes_shape, graph.nodes.data());  // copied
  }
  make_read_only(nodes_);

  const std::size_t e = graph.num_edges();
  if (flat_) {
    py::array_t<float> index(static_cast<py::ssize_t>(2 * e));
    std::transform(graph.edges.begin(), graph.edges.end(), index.mutable_data(),
                   [](auto node) { return static_cast<float>(node); });
    edges_ = std::move(index);
  } else {
    py::array_t<std::int64_t> links({static_cast<py::ssize_t>(e), py::ssize_t{2}});
    std::int64_t* out = links.mutable_data();
    for (std::size_t i = 0; i < e; ++i) {
      out[2 * i] = graph.edges[i];
      out[2 * i + 1] = graph.edges[e + i];
    }
    edges_ = std::move(links);
  }
  make_read_only(edges_);
}

std::vector<py::ssize_t> ObservationArrays::shape(std::size_t rows, std::size_t columns) const {
  if (flat_) return {static_cast<py::ssize_t>(rows * columns)};
  return {static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(columns)};
}

py::dict ObservationArrays::single(const ObservationView& obs) {
  const Keys& k = keys();
  py::dict d;
  d[k.nodes] = nodes_;
  d[flat_ ? k.edge_index : k.edge_links] = edges_;
  d[k.node_state] = read_only_copy(obs.dynamic, shape(obs.num_nodes(), obs.dynamic_features));
  const bool same_mask =
      last_mask_ && last_mask_.size() == static_cast<py::ssize_t>(obs.action_mask.size()) &&
      std::memcmp(last_mask_.data(), obs.action_mask.data(), obs.action_mask.size()) == 0;
  if (!same_mask) {
    last_mask_ = read_only_copy(as_int8(obs.action_mask),
                                {static_cast<py::ssize_t>(obs.action_mask.size())});
  }
  d[k.action_mask] = last_mask_;
  if (obs.occupancy_shape[0] > 0) {
    const GridShape& g = obs.occupancy_shape;
    std::vector<py::ssize_t> grid = {static_cast<py::ssize_t>(g[0]), static_cast<py::ssize_t>(g[1]),
                                     static_cast<py::ssize_t>(g[2])};
    if (flat_) grid = {static_cast<py::ssize_t>(grid_size(g))};
    d[k.occupancy] = read_only_copy(obs.occupancy, std::move(grid));
  }
  return d;
}

py::dict ObservationArrays::batch(std::span<const ObservationView> obs) {
  const Keys& k = keys();
  const std::size_t copies = obs.size();
  const std::size_t n = obs.front().num_nodes();
  const std::size_t fd = obs.front().dynamic_features;
  const std::size_t mask = obs.front().action_mask.size();
  const auto c = static_cast<py::ssize_t>(copies);
  py::array_t<float> state =
      flat_ ? py::array_t<float>({c, static_cast<py::ssize_t>(n * fd)})
            : py::array_t<float>({c, static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(fd)});
  py::array_t<std::int8_t> masks(
      {static_cast<py::ssize_t>(copies), static_cast<py::ssize_t>(mask)});
  for (std::size_t i = 0; i < copies; ++i) {
    std::memcpy(state.mutable_data() + i * n * fd, obs[i].dynamic.data(),
                obs[i].dynamic.size_bytes());
    std::memcpy(masks.mutable_data() + i * mask, obs[i].action_mask.data(), mask);
  }
  make_read_only(state);
  make_read_only(masks);
  py::dict d;
  d[k.nodes] = broadcast(nodes_, copies);
  d[flat_ ? k.edge_index : k.edge_links] = broadcast(edges_, copies);
  d[k.node_state] = std::move(state);
  d[k.action_mask] = std::move(masks);
  if (const GridShape& g = obs.front().occupancy_shape; g[0] > 0) {
    const std::size_t cells = grid_size(g);
    std::vector<py::ssize_t> grid_shape = {static_cast<py::ssize_t>(copies),
                                           static_cast<py::ssize_t>(cells)};
    if (!flat_)
      grid_shape = {static_cast<py::ssize_t>(copies), static_cast<py::ssize_t>(g[0]),
                    static_cast<py::ssize_t>(g[1]), static_cast<py::ssize_t>(g[2])};
    py::array_t<float> grids(grid_shape);
    for (std::size_t i = 0; i < copies; ++i)
      std::memcpy(grids.mutable_data() + i * cells, obs[i].occupancy.data(), cells * sizeof(float));
    make_read_only(grids);
    d[k.occupancy] = std::move(grids);
  }
  return d;
}

py::array edge_index(const ObservationView& obs) {
  const StaticGraph& graph = *obs.graph;  // its edges are 2 x E already
  const auto e = static_cast<py::ssize_t>(graph.num_edges());
  py::array_t<std::int64_t> out({py::ssize_t{2}, e});
  std::copy(graph.edges.begin(), graph.edges.end(), out.mutable_data());
  make_read_only(out);
  return out;
}

py::array_t<bool> bool_mask(std::span<const std::uint8_t> mask) {
  py::array_t<bool> out(static_cast<py::ssize_t>(mask.size()));
  std::transform(mask.begin(), mask.end(), out.mutable_data(),
                 [](std::uint8_t allowed) { return allowed != 0; });
  return out;
}

bool replaces_masked_actions(const Env& env) {
  const OptionMap options = env.options();
  const auto it = options.find("masked_action");
  return it != options.end() && it->second == "fallback";
}

py::dict info_dict(const EnvInfo& info, bool replaced_action) {
  const Keys& k = keys();
  py::dict d;
  d[k.latency_fs] = py::int_(info.latency_fs);
  d[k.latency_us] = py::float_(to_microseconds(info.latency_fs));
  d[k.speedup] = py::float_(info.speedup);
  d[k.valid] = py::bool_(info.valid);
  d[k.overflow_bytes] = py::int_(info.overflow_bytes);
  d[k.rectified] = py::bool_(info.rectified);
  d[k.demotions] = py::int_(info.demotions);
  d[k.step] = py::int_(info.step);
  if (replaced_action && info.replaced_action) d[k.replaced_action] = py::bool_(true);
  return d;
}

py::dict info_batch(std::span<const EnvInfo> infos, bool replaced_action) {
  const Keys& k = keys();
  const auto size = static_cast<py::ssize_t>(infos.size());
  auto column = [&](auto dtype_tag, auto field) {
    py::array_t<decltype(dtype_tag)> out(size);
    for (py::ssize_t i = 0; i < size; ++i)
      out.mutable_data()[i] =
          static_cast<decltype(dtype_tag)>(field(infos[static_cast<std::size_t>(i)]));
    return out;
  };
  py::dict d;
  d[k.latency_fs] = column(std::int64_t{}, [](const EnvInfo& i) { return i.latency_fs; });
  d[k.latency_us] =
      column(double{}, [](const EnvInfo& i) { return to_microseconds(i.latency_fs); });
  d[k.speedup] = column(double{}, [](const EnvInfo& i) { return i.speedup; });
  d[k.valid] = column(bool{}, [](const EnvInfo& i) { return i.valid; });
  d[k.overflow_bytes] = column(std::int64_t{}, [](const EnvInfo& i) { return i.overflow_bytes; });
  d[k.rectified] = column(bool{}, [](const EnvInfo& i) { return i.rectified; });
  d[k.demotions] = column(std::int64_t{}, [](const EnvInfo& i) { return i.demotions; });
  d[k.step] = column(std::int64_t{}, [](const EnvInfo& i) { return i.step; });
  if (replaced_action)
    d[k.replaced_action] = column(bool{}, [](const EnvInfo& i) { return i.replaced_action; });
  return d;
}

}  // namespace memplace::python
