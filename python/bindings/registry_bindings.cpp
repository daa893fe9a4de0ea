// The registry from Python: environment ids, their options, and the shipped workloads and
// hardware models.
#include "env/model/inputs/hardware.hpp"
#include "env/model/inputs/workload.hpp"
#include "env/registry.hpp"
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
        for (const EnvSpec& spec : registered_envs()) {
          py::dict d;
          d["id"] = spec.id;
          d["kind"] = spec.kind;
          d["version"] = spec.version;
          d["workload"] = spec.workload.empty() ? py::object(py::none()) : py::str(spec.workload);
          d["hardware"] = spec.hardware.empty() ? py::object(py::none()) : py::str(spec.hardware);
          d["description"] = spec.description;
          out.append(d);
        }
        return out;
      },
      "Every registered environment: id, kind, version, workload (None for the generic ids), "
      "hardware (None "
      "unless the id fixes it: <workload>@<hardware>), description.");
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
}

}  // namespace memplace::python
