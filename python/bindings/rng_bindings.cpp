// memplace._memplace.Rng: the generator behind memplace.spaces. Sampling goes through the C++
// spaces (env/spaces.hpp), so a Python space seeded with s draws exactly what the C++ space draws
// from Rng(s).
#include <algorithm>
#include <span>
#include <string>

#include "base/rng.hpp"
#include "env/spaces.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

namespace {

// A mask as bytes (int8, uint8 or bool, nonzero = allowed), without copying.
struct MaskBytes {
  py::buffer_info info;
  std::span<const std::uint8_t> bytes() const {
    return {static_cast<const std::uint8_t*>(info.ptr), static_cast<std::size_t>(info.size)};
  }
};

MaskBytes read_mask(const py::buffer& mask, py::ssize_t ndim) {
  MaskBytes out{mask.request()};
  if (out.info.itemsize != 1 ||
      (out.info.format != "b" && out.info.format != "B" && out.info.format != "?")) {
    throw py::type_error("mask must be an int8, uint8 or bool array, got format '" +
                         out.info.format + "'");
  }
  if (out.info.ndim != ndim) {
    throw py::value_error("mask must have " + std::to_string(ndim) + " dimension(s), got " +
                          std::to_string(out.info.ndim));
  }
  // Contiguous rows (a strided view would be read wrongly).
  if (out.info.strides.back() != 1 || (ndim == 2 && out.info.strides[0] != out.info.shape[1])) {
    throw py::value_error("mask must be C-contiguous");
  }
  return out;
}

// Uniform over the values a mask allows; 0 without a draw when it allows none, as Gymnasium's
// spaces return their start: a sequential episode's last mask is all zeros, and the vector env
// ignores an ended copy's action, so `action_space.sample(mask=obs["action_mask"])` must not raise
// there (docs/python.md). The C++ Discrete::sample still refuses an empty mask.
std::int64_t masked_sample(Rng& rng, std::int64_t n, std::span<const std::uint8_t> mask) {
  if (mask.size() == static_cast<std::size_t>(n) &&
      std::all_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m == 0; }))
    return 0;
  return Discrete{n}.sample(rng, mask);  // std::invalid_argument reaches Python as ValueError
}

py::array_t<std::int64_t> multi_discrete(Rng& rng, const std::vector<std::int64_t>& nvec,
                                         const std::optional<py::buffer>& mask) {
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(nvec.size()));
  std::int64_t* values = out.mutable_data();
  if (!mask) {
    MultiDiscrete{nvec}.sample(rng, std::span<std::int64_t>(values, nvec.size()));
    return out;
  }
  const MaskBytes m = read_mask(*mask, 2);
  const auto rows = static_cast<std::size_t>(m.info.shape[0]);
  const auto width = static_cast<std::size_t>(m.info.shape[1]);
  if (rows != nvec.size()) {
    throw py::value_error("mask has " + std::to_string(rows) + " rows, expected one per entry (" +
                          std::to_string(nvec.size()) + ")");
  }
  for (std::size_t i = 0; i < nvec.size(); ++i) {
    if (static_cast<std::size_t>(nvec[i]) > width) {
      throw py::value_error("mask rows have " + std::to_string(width) + " columns, entry " +
                            std::to_string(i) + " needs " + std::to_string(nvec[i]));
    }
    values[i] = masked_sample(rng, nvec[i],
                              m.bytes().subspan(i * width, static_cast<std::size_t>(nvec[i])));
  }
  return out;
}

}  // namespace

void bind_rng(py::module_& m) {
  py::class_<Rng>(m, "Rng",
                  "memplace's portable generator (xoshiro256**): the same seed gives the same "
                  "numbers in C++ and Python, on every platform.")
      .def(py::init([](py::object seed) { return Rng(read_seed(seed).value_or(0)); }),
           py::arg("seed") = 0)
      .def(
          "reseed", [](Rng& rng, py::object seed) { rng.reseed(read_seed(seed).value_or(0)); },
          py::arg("seed"))
      .def(
          "discrete",
          [](Rng& rng, std::int64_t n, const std::optional<py::buffer>& mask) {
            if (!mask) return Discrete{n}.sample(rng);
            return masked_sample(rng, n, read_mask(*mask, 1).bytes());
          },
          py::arg("n"), py::arg("mask") = py::none(),
          "Uniform in [0, n), or over the entries the mask allows (0, drawing nothing, when it "
          "allows none).")
      .def("multi_discrete", &multi_discrete, py::arg("nvec"), py::arg("mask") = py::none(),
           "One value per entry of nvec; an optional (len(nvec), width) mask per entry.")
      .def(
          "uniform",
          [](Rng& rng, float low, float high, py::ssize_t size) {
            if (size < 0) throw py::value_error("size must be non-negative");
            const std::vector<float> values =
                Box{{static_cast<std::size_t>(size)}, low, high}.sample(rng);
            return py::array_t<float>(size, values.data());
          },
          py::arg("low"), py::arg("high"), py::arg("size"), "float32 values in [low, high).")
      .def(
          "integers",
          [](Rng& rng, std::int64_t low, std::int64_t high, py::ssize_t size) {
            if (size < 0) throw py::value_error("size must be non-negative");
            if (high < low) throw py::value_error("integers: high < low");
            py::array_t<std::int64_t> out(size);
            // Unsigned arithmetic: the full int64 range would overflow a signed difference.
            const std::uint64_t span =
                static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
            if (span == 0) throw py::value_error("integers: the range must be below 2**64");
            for (py::ssize_t i = 0; i < size; ++i)
              out.mutable_data()[i] = low + static_cast<std::int64_t>(rng.uniform(span));
            return out;
          },
          py::arg("low"), py::arg("high"), py::arg("size"), "int64 values in [low, high].")
      .def("state", &Rng::state, "The full state (for checkpoints).")
      .def("set_state", &Rng::set_state, py::arg("state"));
}

}  // namespace memplace::python
