// The pieces of the extension module memplace._memplace (docs/python.md), one bind_* function per
// file, and the conversions they share.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "env/env.hpp"

namespace memplace::python {

namespace py = pybind11;

void bind_rng(py::module_& m);         // rng_bindings.cpp: the sampler behind memplace.spaces
void bind_simulator(py::module_& m);   // simulator_bindings.cpp: workloads, hardware, scoring
void bind_env(py::module_& m);         // env_bindings.cpp: one environment
void bind_vector_env(py::module_& m);  // vector_env_bindings.cpp: many copies at once
void bind_registry(py::module_& m);    // registry_bindings.cpp: ids, options, shipped data
void bind_suite(py::module_& m);       // suite_bindings.cpp: external agents' suite runs
void bind_place(py::module_& m);       // place_bindings.cpp: a model placed by a policy

// Reads integers — a Python int, a numpy integer scalar or array, or a (nested) list or tuple of
// them — into `out`, flattened in C order. Throws py::type_error naming `what` for anything else
// (floats, strings, booleans, None). Reuses out's storage.
void read_integers(py::handle value, const char* what, std::vector<std::int64_t>& out);

// A str or an os.PathLike as a string; nullopt for anything else.
std::optional<std::string> path_string(py::handle value);

// Python keyword options to the string map make() takes: values may be str, int, float or bool.
OptionMap to_option_map(const py::dict& options);

// A seed argument: None, or a non-negative integer (py::type_error / py::value_error otherwise).
std::optional<std::uint64_t> read_seed(py::handle seed);

// reset()'s options argument: None or an empty dict (options are fixed when an env is made).
void check_reset_options(py::handle options, bool start_allowed = false);

// Marks a numpy array read-only (observations share their static arrays between steps).
void make_read_only(py::array& array);

}  // namespace memplace::python
