// Argument conversions shared by the bindings: every bad value becomes a TypeError or ValueError
// that names the argument, never a crash or a silent cast.
#include <string>

#include "python/bindings/bindings.hpp"

namespace memplace::python {

namespace {

std::string type_name(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

// A Python int or numpy integer scalar (anything with __index__ except bool).
bool is_integer_scalar(py::handle value) {
  // numpy.bool_ still has a (deprecated) __index__. The type is looked up once and kept for the
  // life of the process (numpy is never unloaded).
  static const py::handle numpy_bool =
      py::object(py::module_::import("numpy").attr("bool_")).release();
  return PyIndex_Check(value.ptr()) && !PyBool_Check(value.ptr()) &&
         !py::isinstance<py::array>(value) && !py::isinstance(value, numpy_bool);
}

std::int64_t integer_value(py::handle value, const char* what) {
  const long long v = PyLong_AsLongLong(value.ptr());
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error(std::string(what) + ": " + std::string(py::repr(value)) +
                          " does not fit in a 64-bit integer");
  }
  return v;
}

}  // namespace

void read_integers(py::handle value, const char* what, std::vector<std::int64_t>& out) {
  out.clear();
  if (PyLong_CheckExact(value.ptr())) {  // the common case first: a plain int
    out.push_back(integer_value(value, what));
    return;
  }
  if (!py::isinstance<py::array>(value) && is_integer_scalar(value)) {
    // A torch tensor has __index__ too, which fails unless it holds one integer: read the others
    // as arrays, through their __array__ (a float tensor is then refused as floats).
    const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
    if (index) {
      out.push_back(integer_value(index, what));
      return;
    }
    PyErr_Clear();
  }
  if (value.is_none() || py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
      PyBool_Check(value.ptr())) {
    throw py::type_error(std::string(what) + " must be integers, got " + type_name(value));
  }
  // Arrays, lists and tuples: through numpy, which also checks that nested lists are rectangular.
  const bool given_array = py::isinstance<py::array>(value);
  py::array array;
  try {
    array = py::array::ensure(value);
  } catch (const py::error_already_set&) {
    throw py::type_error(std::string(what) + " must be integers, got " + type_name(value));
  }
  if (!array) {
    PyErr_Clear();
    throw py::type_error(std::string(what) + " must be integers, got " + type_name(value));
  }
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u') {
    // An empty list becomes a float64 array: it holds no non-integer, so let the length check
    // name the problem.
    if (array.size() != 0) {
      const std::string dtype = py::str(array.dtype());
      throw py::type_error(std::string(what) + " must be integers, got " +
                           (given_array
                                ? "an array of " + dtype
                                : type_name(value) + " (read as an array of " + dtype + ")"));
    }
    return;
  }
  if (kind == 'u' && array.itemsize() == 8) {
    const auto u =
        py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    for (py::ssize_t i = 0; i < u.size(); ++i) {
      if (u.data()[i] > static_cast<std::uint64_t>(INT64_MAX)) {
        throw py::value_error(std::string(what) + ": " + std::to_string(u.data()[i]) +
                              " does not fit in a 64-bit integer");
      }
    }
  }
  const auto ints =
      py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  out.assign(ints.data(), ints.data() + ints.size());
}

std::optional<std::string> path_string(py::handle value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  const py::module_ os = py::module_::import("os");
  if (!py::isinstance(value, os.attr("PathLike"))) return std::nullopt;
  return py::str(os.attr("fspath")(value)).cast<std::string>();
}

OptionMap to_option_map(const py::dict& options) {
  OptionMap out;
  for (const auto& [key, value] : options) {
    const std::string name = py::str(key);
    if (py::isinstance<py::str>(value)) {
      out[name] = value.cast<std::string>();
    } else if (PyBool_Check(value.ptr())) {
      out[name] = value.cast<bool>() ? "true" : "false";
    } else if (PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr())) {
      out[name] = py::str(value).cast<std::string>();
    } else if (const std::optional<std::string> path = path_string(value)) {
      out[name] = *path;
    } else {
      throw py::type_error("option " + name + " must be a str, int, float, bool or path, got " +
                           type_name(value));
    }
  }
  return out;
}

std::optional<std::uint64_t> read_seed(py::handle seed) {
  if (seed.is_none()) return std::nullopt;
  if (PyBool_Check(seed.ptr()) || !is_integer_scalar(seed)) {
    throw py::type_error("seed must be None or a non-negative integer, got " + type_name(seed));
  }
  const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(seed.ptr()));
  if (!index) {  // e.g. a torch tensor of several values
    PyErr_Clear();
    throw py::type_error("seed must be None or a non-negative integer, got " + type_name(seed));
  }
  const unsigned long long v = PyLong_AsUnsignedLongLong(index.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error("seed must be a non-negative integer below 2**64, got " +
                          std::string(py::repr(seed)));
  }
  return static_cast<std::uint64_t>(v);
}

void check_reset_options(py::handle options, bool start_allowed) {
  if (options.is_none()) return;
  if (!py::isinstance<py::dict>(options)) {
    throw py::type_error("reset options must be None or a dict");
  }
  const auto dict = py::reinterpret_borrow<py::dict>(options);
  for (const auto& [key, value] : dict) {
    if (start_allowed && py::isinstance<py::str>(key) && key.cast<std::string>() == "start")
      continue;
    throw py::value_error(
        std::string(start_allowed ? "reset() takes only the option 'start' (a mapping to start "
                                    "from); "
                                  : "reset() takes no options; ") +
        "the others are fixed when the environment is made (pass them to memplace.make); got " +
        std::string(py::repr(key)));
  }
}

void make_read_only(py::array& array) {
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
}

}  // namespace memplace::python
