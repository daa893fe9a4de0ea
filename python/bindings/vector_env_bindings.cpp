// memplace._memplace.VectorEnv: N copies stepped together in C++ (env/vector_env.hpp), with
// batched numpy results. The Python class memplace.VectorEnv adds the space objects.
#include <stdexcept>
#include <string>

#include <algorithm>

#include "env/vector_env.hpp"
#include "python/bindings/env_state.hpp"
#include "python/bindings/observation_arrays.hpp"
#include "python/bindings/space_specs.hpp"

namespace memplace::python {

namespace {

class PyVectorEnv {
 public:
  PyVectorEnv(const std::string& id, std::size_t num_envs, py::handle seed, const py::dict& options,
              int num_threads, const std::string& observation)
      : first_seed_(read_seed(seed)),
        layout_(observation_layout(observation)),
        envs_(id, num_envs, to_option_map(options), VectorEnvOptions{num_threads}),
        arrays_(envs_.env(0).observation(), layout_),
        replaces_(replaces_masked_actions(envs_.env(0))) {
    if (num_threads < 0) throw py::value_error("num_threads must be >= 0 (0: one per core)");
  }

  py::tuple reset(py::handle seed, py::handle options) {
    const Busy busy(busy_);
    check_reset_options(options);
    std::optional<std::uint64_t> s = read_seed(seed);
    if (!s && !started_) s = first_seed_;  // make_vec's seed applies to the first reset
    VectorEnv& envs = open();
    VectorResetResult r;
    {
      py::gil_scoped_release release;
      r = envs.reset(s);
    }
    started_ = true;
    return py::make_tuple(arrays_.batch(r.obs), info_batch(r.infos, replaces_));
  }

  py::tuple step(py::handle actions) {
    const Busy busy(busy_);
    VectorEnv& envs = open();
    read_integers(actions, "actions", actions_);
    const std::size_t expected = envs_.num_envs() * envs_.action_size();
    if (actions_.size() != expected) {
      throw py::value_error("actions: expected " + std::to_string(expected) + " integers (" +
                            std::to_string(envs_.num_envs()) + " envs x " +
                            std::to_string(envs_.action_size()) + "), got " +
                            std::to_string(actions_.size()));
    }
    VectorStepResult r;
    {
      py::gil_scoped_release release;
      r = envs.step(actions_);
    }
    const auto n = static_cast<py::ssize_t>(envs_.num_envs());
    py::array_t<double> rewards(n, r.rewards.data());
    py::array_t<bool> terminated(n);
    py::array_t<bool> truncated(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      terminated.mutable_data()[i] = r.terminated[static_cast<std::size_t>(i)] != 0;
      truncated.mutable_data()[i] = r.truncated[static_cast<std::size_t>(i)] != 0;
    }
    return py::make_tuple(arrays_.batch(r.obs), rewards, terminated, truncated,
                          info_batch(r.infos, replaces_));
  }

  void close() {
    const Busy busy(busy_);
    closed_ = true;
  }
  bool closed() const { return closed_; }
  VectorEnv& open() {
    if (closed_) throw py::value_error(envs_.id() + ": the vector env is closed");
    return envs_;
  }
  const VectorEnv& envs() const { return envs_; }
  ObservationLayout layout() const { return layout_; }

 private:
  std::optional<std::uint64_t> first_seed_;
  ObservationLayout layout_;
  VectorEnv envs_;
  ObservationArrays arrays_;
  bool replaces_;  // masked_action=fallback: infos say when it did
  std::vector<std::int64_t> actions_;
  bool started_ = false;
  bool closed_ = false;

  // Marks a call in progress. reset() and step() release the GIL while the copies run, so another
  // Python thread could otherwise enter the same vector env (and race on its buffers); the flag is
  // only read and written with the GIL held.
  class Busy {
   public:
    explicit Busy(bool& flag) : flag_(flag) {
      if (flag_) {
        throw std::runtime_error(
            "VectorEnv: called from two threads at once (use one vector env per thread)");
      }
      flag_ = true;
    }
    ~Busy() { flag_ = false; }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

   private:
    bool& flag_;
  };
  bool busy_ = false;
};

}  // namespace

void bind_vector_env(py::module_& m) {
  py::class_<PyVectorEnv>(m, "VectorEnv", "num_envs copies of one environment (memplace.make_vec).")
      .def(py::init<const std::string&, std::size_t, py::handle, const py::dict&, int,
                    const std::string&>(),
           py::arg("id"), py::arg("num_envs"), py::arg("seed") = py::none(),
           py::arg("options") = py::dict(), py::arg("num_threads") = 0,
           py::arg("observation") = "graph")
      .def_property_readonly("observation",
                             [](const PyVectorEnv& v) {
                               return v.layout() == ObservationLayout::flat ? "flat" : "graph";
                             })
      .def_property_readonly("id", [](const PyVectorEnv& v) { return v.envs().id(); })
      .def_property_readonly("num_envs", [](const PyVectorEnv& v) { return v.envs().num_envs(); })
      .def_property_readonly("num_threads",
                             [](const PyVectorEnv& v) { return v.envs().num_threads(); })
      .def("reset", &PyVectorEnv::reset, py::kw_only(), py::arg("seed") = py::none(),
           py::arg("options") = py::none(),
           "Resets every copy: (observations, infos). Copy i is seeded seed + i.")
      .def("step", &PyVectorEnv::step, py::arg("actions"),
           "(observations, rewards, terminated, truncated, infos), batched; copies that ended "
           "at the previous step reset instead (Gymnasium's next-step autoreset).")
      .def("close", &PyVectorEnv::close)
      .def_property_readonly("closed", &PyVectorEnv::closed)
      .def_property_readonly(
          "episode_length", [](const PyVectorEnv& v) { return v.envs().env(0).episode_length(); },
          "Steps in one episode of a copy (the same for every copy).")
      .def(
          "action_masks",
          [](const PyVectorEnv& v) {
            const VectorEnv& envs = v.envs();
            const std::size_t k = envs.env(0).observation().action_mask.size();
            py::array_t<bool> out(
                {static_cast<py::ssize_t>(envs.num_envs()), static_cast<py::ssize_t>(k)});
            for (std::size_t i = 0; i < envs.num_envs(); ++i) {
              const std::span<const std::uint8_t> mask = envs.env(i).observation().action_mask;
              bool* row = out.mutable_data() + i * k;
              if (envs.resets_next_step(i))
                std::fill(row, row + k, true);  // its action is ignored: any is allowed
              else
                std::transform(mask.begin(), mask.end(), row,
                               [](std::uint8_t allowed) { return allowed != 0; });
            }
            return out;
          },
          "(num_envs, K) bool: each copy's action mask, as obs['action_mask'], except that a copy "
          "whose episode ended at the last step (it resets at the next, ignoring its action) "
          "allows every action: its all-zero terminal mask would give a masked softmax no "
          "allowed action (NaN).")
      .def_property_readonly(
          "simulator",
          [](const PyVectorEnv& v) -> const Simulator& { return v.envs().env(0).simulator(); },
          py::return_value_policy::reference_internal,
          "The simulator every copy scores with (one, shared).")
      .def_property_readonly(
          "edge_index",
          [](const PyVectorEnv& v) { return edge_index(v.envs().env(0).observation()); },
          "The graph's edges as PyTorch Geometric's edge_index: (2, E) int64 (every copy's).")
      .def_property_readonly(
          "current_tensor",
          [](const PyVectorEnv& v) {
            py::list out;
            for (std::size_t i = 0; i < v.envs().num_envs(); ++i)
              out.append(current_tensor(v.envs().env(i)));
            return out;
          },
          "Per copy, the tensor its next step places (None for a copy that resets at the next "
          "step, and in the single-step env).")
      .def(
          "mapping", [](const PyVectorEnv& v, std::size_t i) { return mapping(v.envs().env(i)); },
          py::arg("index"),
          "Copy `index`'s mapping so far (sequential env and malloc env; None otherwise).")
      .def("_action_spec",
           [](const PyVectorEnv& v) { return space_spec(v.envs().single_action_space()); })
      .def("_observation_spec",
           [](const PyVectorEnv& v) { return observation_spec(v.envs().env(0).observation()); });
}

}  // namespace memplace::python
