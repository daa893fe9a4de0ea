// memplace.place (docs/place.md, docs/python.md "Placing a model with a policy"): a model placed
// by a trained policy, as `memplace place` places it.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "base/errors.hpp"
#include "base/made_folders.hpp"
#include "experiments/generalization/place.hpp"
#include "model/mapping_io.hpp"
#include "python/bindings/bindings.hpp"
#include "workloads/tools/onnx_import.hpp"

namespace memplace::python {

namespace {

namespace fs = std::filesystem;

py::dict place_into(const std::string& model, const std::string& hardware,
                    const std::string& policy, std::uint64_t budget, std::uint64_t seed,
                    const std::string& out, const std::map<std::string, std::int64_t>& dims,
                    std::optional<double> init_temperature) {
  ImportOptions options;
  options.dims.insert(dims.begin(), dims.end());
  experiments::PlaceRequest request;
  request.workload = workload_from_model(model, options, out);
  request.hardware = hardware;
  request.policy = policy;
  request.budget = budget;
  request.seed = seed;
  request.init_temperature = init_temperature;
  if (budget > 0) request.fine_tune_dir = fs::path(out) / "fine-tune";
  experiments::PlaceResult r;
  {
    py::gil_scoped_release release;
    r = experiments::place(request);
  }
  const Simulator& sim = *r.simulator;
  py::dict d;
  d["workload"] = sim.workload().name();
  d["hardware"] = sim.hardware().name;
  d["policy"] = r.policy_source;
  d["policy_spec"] = r.policy_has_spec ? py::object(py::str(r.policy.to_string())) : py::none();
  py::list memories;
  for (const MemoryIndex m : r.mapping)
    memories.append(sim.hardware().memories[m].name);
  d["mapping"] = memories;
  d["speedup"] = r.speedup;
  d["latency_fs"] = r.latency_fs;
  d["zero_shot_valid"] = r.zero_shot_valid;
  d["zero_shot_demotions"] = r.zero_shot_demotions;
  d["zero_shot_speedup"] = r.zero_shot_speedup;
  d["fine_tune_evaluations"] = r.fine_tune_evaluations;
  d["fine_tuned_speedup"] = r.fine_tuned_speedup;
  d["all_fast_rectified_speedup"] = r.all_fast_rectified_speedup;
  d["bound_speedup"] = r.bound_speedup;
  d["workload_file"] = request.workload;
  if (!out.empty()) {
    const fs::path file = fs::path(out) / "mapping.yaml";
    save_mapping(file, sim, r.mapping, RecordedResult{r.latency_fs, r.speedup > 0});
    d["mapping_file"] = file.string();
  } else {
    d["mapping_file"] = py::none();
  }
  return d;
}

py::dict place_model(const std::string& model, const std::string& hardware,
                     const std::string& policy, std::uint64_t budget, std::uint64_t seed,
                     const std::string& out, const std::map<std::string, std::int64_t>& dims,
                     std::optional<double> init_temperature) {
  const bool onnx = fs::path(model).extension() == ".onnx";
  if (!onnx && !dims.empty()) throw InputError("dims is for ONNX models; " + model + " is not one");
  if ((onnx || budget > 0) && out.empty())
    throw InputError(std::string("out: a folder is needed for ") +
                     (onnx ? "the ONNX model's workload YAML" : "the fine-tune's run"));
  // The policy, the chip and the model are checked only once an ONNX model's workload is written
  // into `out`: a refused request removes the folders it made.
  return removing_made_folders_on_bad_input(out, [&] {
    if (!out.empty()) fs::create_directories(out);
    return place_into(model, hardware, policy, budget, seed, out, dims, init_temperature);
  });
}

}  // namespace

void bind_place(py::module_& m) {
  m.def("place", &place_model, py::arg("model"), py::kw_only(), py::arg("hardware"),
        py::arg("policy") = "", py::arg("budget") = 0, py::arg("seed") = 0, py::arg("out") = "",
        py::arg("dims") = std::map<std::string, std::int64_t>{},
        py::arg("init_temperature") = py::none(),
        "Place a model (a workload name, YAML or .onnx file) on a chip with a trained policy (a "
        "file or a shipped policy's name; default: the one memplace ships for the chip): "
        "its greedy mapping rectified, fine-tuned first for `budget` evaluations (from the policy "
        "with its logits divided by `init_temperature`; None: 4 for ppo, 1 for the others); "
        "returns the "
        "figures and the mapping (memories per tensor), and with `out` writes mapping.yaml "
        "there (docs/place.md).");
}

}  // namespace memplace::python
