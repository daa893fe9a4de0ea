// memplace._memplace.Env: one environment with Gymnasium's reset/step signatures. The Python class
// memplace.Env derives from it and adds the space objects (python/memplace/env.py).
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "env/malloc/malloc_env.hpp"
#include "env/registry.hpp"
#include "env/sequential_env.hpp"
#include "python/bindings/env_state.hpp"
#include "python/bindings/observation_arrays.hpp"
#include "python/bindings/space_specs.hpp"

namespace memplace::python {

namespace {

class PyEnv {
 public:
  PyEnv(const std::string& id, const py::dict& options, const std::string& observation)
      : layout_(observation_layout(observation)),
        env_(make(id, to_option_map(options))),
        arrays_(env_->observation(), layout_),
        replaces_(replaces_masked_actions(*env_)) {}

  const std::string& id() const { return env_->id(); }

  py::tuple reset(py::handle seed, py::handle options) {
    auto* sequential = dynamic_cast<SequentialEnv*>(&open());
    check_reset_options(options, sequential != nullptr);
    const std::optional<std::uint64_t> s = read_seed(seed);
    ResetResult r = open().reset(s);
    episode_actions_.clear();
    if (!options.is_none() && py::len(options) != 0) {
      read_integers(options["start"], "reset option 'start'", action_);
      Mapping start(action_.size());
      for (std::size_t t = 0; t < start.size(); ++t) {
        if (action_[t] < 0 || action_[t] > 255)
          throw py::value_error(env_->id() + ": start mapping: tensor " + std::to_string(t) +
                                " has memory " + std::to_string(action_[t]));
        start[t] = static_cast<MemoryIndex>(action_[t]);
      }
      r = sequential->reset_to(start);
    }
    return py::make_tuple(arrays_.single(r.obs), info_dict(r.info, replaces_));
  }

  py::tuple step(py::handle action) {
    read_integers(action, "action", action_);
    const StepResult r = open().step(action_);
    episode_actions_.insert(episode_actions_.end(), action_.begin(), action_.end());
    return py::make_tuple(arrays_.single(r.obs), py::float_(r.reward), py::bool_(r.terminated),
                          py::bool_(r.truncated), info_dict(r.info, replaces_));
  }

  void close() { closed_ = true; }
  bool closed() const { return closed_; }
  Env& open() {
    if (closed_) throw py::value_error(env_->id() + ": the environment is closed");
    return *env_;
  }
  const Env& env() const { return *env_; }
  ObservationLayout layout() const { return layout_; }

  // The actions of the episode so far, one row per step (a replay makes the same state again:
  // the dynamics are deterministic).
  py::array_t<std::int64_t> episode_actions() const {
    const std::size_t width = std::max<std::size_t>(1, action_.size());
    py::array_t<std::int64_t> out({static_cast<py::ssize_t>(episode_actions_.size() / width),
                                   static_cast<py::ssize_t>(width)});
    std::copy(episode_actions_.begin(), episode_actions_.end(), out.mutable_data());
    return out;
  }

 private:
  ObservationLayout layout_;
  std::unique_ptr<Env> env_;
  ObservationArrays arrays_;
  std::vector<std::int64_t> action_;           // reused by every step
  std::vector<std::int64_t> episode_actions_;  // since the last reset, row after row
  bool replaces_;                              // masked_action=fallback: info says when it did
  bool closed_ = false;
};

}  // namespace

void bind_env(py::module_& m) {
  py::class_<PyEnv>(m, "Env", "One placement environment (use memplace.make).")
      .def(py::init<const std::string&, const py::dict&, const std::string&>(), py::arg("id"),
           py::arg("options") = py::dict(), py::arg("observation") = "graph")
      .def_property_readonly(
          "observation",
          [](const PyEnv& e) { return e.layout() == ObservationLayout::flat ? "flat" : "graph"; })
      .def("_episode_actions", &PyEnv::episode_actions)
      .def_property_readonly("id", &PyEnv::id)
      .def("reset", &PyEnv::reset, py::kw_only(), py::arg("seed") = py::none(),
           py::arg("options") = py::none(),
           "Starts an episode: (observation, info). A seed reseeds the episode's generator. The "
           "sequential env takes options={'start': mapping} (a memory per tensor, valid): the "
           "tensors not yet placed then wait there instead of in the slowest memory.")
      .def("step", &PyEnv::step, py::arg("action"),
           "(observation, reward, terminated, truncated, info). Raises ValueError for a bad "
           "action, leaving the environment unchanged.")
      .def("close", &PyEnv::close)
      .def_property_readonly("closed", &PyEnv::closed)
      .def_property_readonly("episode_length",
                             [](const PyEnv& e) { return e.env().episode_length(); })
      .def_property_readonly("options",
                             [](const PyEnv& e) {
                               py::dict d;
                               for (const auto& [name, value] : e.env().options())
                                 d[py::str(name)] = value;
                               return d;
                             })
      .def_property_readonly(
          "simulator", [](const PyEnv& e) -> const Simulator& { return e.env().simulator(); },
          py::return_value_policy::reference_internal,
          "The simulator the environment scores with (shared; see memplace.Simulator).")
      .def_property_readonly(
          "placement_order", [](const PyEnv& e) { return placement_order(e.env()); },
          "Sequential env and malloc env: the tensor ids in the order the episode places "
          "them (tensor id = 2 x layer + 0 for its weight, 1 for its output); None otherwise.")
      .def_property_readonly(
          "current_tensor", [](const PyEnv& e) { return current_tensor(e.env()); },
          "Sequential env and malloc env: the id of the tensor the next step places (the "
          "row of node_state whose weight_current or activation_current is 1); None before reset, "
          "after the episode's last step, and in the single-step env.")
      .def_property_readonly(
          "mapping", [](const PyEnv& e) { return mapping(e.env()); },
          "Sequential env and malloc env: each tensor's memory so far (unplaced tensors in "
          "the slowest, or where reset's 'start' put them); None otherwise.")
      .def_property_readonly(
          "tensor_offsets",
          [](const PyEnv& e) -> py::object {
            const auto* game = dynamic_cast<const MallocEnv*>(&e.env());
            if (!game) return py::none();
            return py::cast(game->tensor_offsets());
          },
          "Malloc env: each tensor's offset in its memory (-1 in the slowest or unplaced); "
          "None otherwise.")
      .def_property_readonly(
          "candidates",
          [](const PyEnv& e) -> py::object {
            const auto* game = dynamic_cast<const MallocEnv*>(&e.env());
            if (!game) return py::none();
            py::list out;
            for (std::size_t a = 0; a < game->observation().action_mask.size(); ++a)
              out.append(py::make_tuple(game->candidate_memory(a), game->candidate_offset(a)));
            return out;
          },
          "Malloc env: per action, (memory, offset) for the tensor being placed (offset -1: "
          "the slowest memory, or no such gap; the mask says which exist); None otherwise.")
      .def(
          "action_masks",
          [](const PyEnv& e) { return bool_mask(e.env().observation().action_mask); },
          "The current observation's action_mask as a bool array (MaskablePPO's protocol): the "
          "memories (sequential), candidate placements (malloc env) or per-tensor memories "
          "(single-step, a hint: N*M entries, tensor by tensor) allowed now. All False after the "
          "episode's last step.")
      .def_property_readonly(
          "edge_index", [](const PyEnv& e) { return edge_index(e.env().observation()); },
          "The graph's edges as PyTorch Geometric's edge_index: (2, E) int64, producers then "
          "consumers (obs['edge_links'] is the same pairs as (E, 2)).")
      .def("_action_spec", [](const PyEnv& e) { return space_spec(e.env().action_space()); })
      .def("_observation_spec",
           [](const PyEnv& e) { return observation_spec(e.env().observation()); });
}

}  // namespace memplace::python
