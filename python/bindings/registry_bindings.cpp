// The registry from Python: environment ids, their options, and the shipped workloads and
// hardware models.
#include "env/registry.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/workload.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

void bind_registry(py::module_& m) {
  m.def(
      "list_envs",
      [] {
        std::vector<std::string> ids;
        for (const EnvSpec& spec : registered_envs())
          ids.push_back(spec.id);
        return ids;
      },
      "Every registered environment id.");
  m.def(
      "env_specs",
      [] {
        py::list out;
        auto or_none = [](const std::string& s) {
          return s.empty() ? py::object(py::none()) : py::object(py::str(s));
        };
        for (const EnvSpec& spec : registered_envs()) {
          py::dict d;
          d["id"] = spec.id;
          d["kind"] = spec.kind;
          d["cost_model"] = spec.cost_model;
          d["revision"] = spec.revision;
          d["version"] = spec.version;
          d["workload"] = or_none(spec.workload);
          d["hardware"] = or_none(spec.hardware);
          d["suite"] = or_none(spec.suite);
          d["path_id"] = spec.path_id;
          d["description"] = spec.description;
          out.append(d);
        }
        return out;
      },
      "Every registered environment: id, kind, cost_model ('cm1'), revision ('v0'), version (the "
      "cost model as configs name it, 'v1'), workload and hardware (None for the generic ids), "
      "suite (the suite whose instance it is, else None), path_id (its id of before the id "
      "grammar), description.");
  m.def(
      "env_id",
      [](std::string_view kind, std::string_view cost_model, std::string_view workload,
         std::string_view hardware) {
        const std::string v = cost_model.starts_with("cm") ? "v" + std::string(cost_model.substr(2))
                                                           : std::string(cost_model);
        return env_id_for(kind, parse_version(v), workload, hardware);
      },
      py::arg("kind"), py::arg("cost_model"), py::arg("workload") = "", py::arg("hardware") = "",
      "The id of an environment by its parts: env_id('sequential', 'cm1', 'resnet18-b1', "
      "'edge-tpu') -> 'memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0' (no workload: the "
      "generic id; no hardware: nnpi).");
  m.def(
      "env_options",
      [](std::string_view id) {
        py::list out;
        for (const OptionSpec& spec : env_option_specs(id)) {
          py::dict d;
          d["name"] = spec.name;
          d["default"] = spec.default_value;
          d["choices"] = spec.choices;
          d["help"] = spec.help;
          out.append(d);
        }
        return out;
      },
      py::arg("id"), "The options an id accepts: name, default, choices (empty: any), help.");
  m.def("list_workloads", &embedded_workload_names, "The shipped workloads' names.");
  m.def("paper_workloads", &paper_workload_names, "The EGRL paper's workloads, in its order.");
  m.def("list_hardware", &embedded_hardware_names, "The shipped hardware models' names.");
  m.def("dynamics_names", &dynamics_names,
        "The registered dynamics' names, in the order of the cost models that brought them "
        "(pinned: v0, streaming: v1, addressed: v2; docs/cost-model.md).");
}

}  // namespace memplace::python
