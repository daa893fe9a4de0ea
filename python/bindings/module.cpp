// memplace._memplace: the C++ side of the Python package `memplace` (python/memplace/).
#include "base/errors.hpp"
#include "base/version.hpp"
#include "python/bindings/bindings.hpp"

PYBIND11_MODULE(_memplace, m) {
  namespace py = pybind11;
  m.doc() = "memplace's C++ core: environments, spaces' sampler and the simulator.";
  m.attr("__version__") = std::string(memplace::memplace_version());
  // Bad workload, hardware, mapping or option input: a ValueError that names file, line, field.
  py::register_exception<memplace::InputError>(m, "InputError", PyExc_ValueError);
  memplace::python::bind_rng(m);
  memplace::python::bind_registry(m);
  memplace::python::bind_simulator(m);
  memplace::python::bind_env(m);
  memplace::python::bind_vector_env(m);
  memplace::python::bind_suite(m);
  memplace::python::bind_place(m);
}
