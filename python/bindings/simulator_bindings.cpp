// Scripting access to the cost model: load a workload and a hardware model, evaluate mappings,
// compute the reference mappings and the exact optimum, rectify, read and write mapping files.
#include <filesystem>
#include <string>

#include <pybind11/stl/filesystem.h>
#include "base/text.hpp"
#include "model/mapping_io.hpp"
#include "model/model_spec.hpp"
#include "model/rectify.hpp"
#include "model/references.hpp"
#include "model/simulator.hpp"
#include "optimum/certificate.hpp"
#include "optimum/headroom.hpp"
#include "optimum/solver.hpp"
#include "optimum/streaming_bound.hpp"

#include "python/bindings/bindings.hpp"

namespace memplace::python {

namespace {

// A mapping argument: integers in 0 .. M-1, one per tensor (checked here and by the simulator).
Mapping read_mapping(py::handle value, const Simulator& sim) {
  std::vector<std::int64_t> values;
  read_integers(value, "mapping", values);
  const auto memories = static_cast<std::int64_t>(sim.num_memories());
  Mapping mapping(values.size());
  for (std::size_t t = 0; t < values.size(); ++t) {
    if (values[t] < 0 || values[t] >= memories) {
      throw py::value_error("mapping[" + std::to_string(t) + "] = " + std::to_string(values[t]) +
                            ": memory index out of range 0.." + std::to_string(memories - 1));
    }
    mapping[t] = static_cast<MemoryIndex>(values[t]);
  }
  sim.check_mapping(mapping);
  return mapping;
}

py::array_t<std::uint8_t> mapping_array(const Mapping& mapping) {
  return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(mapping.size()), mapping.data());
}

// Solves with the GIL released; Ctrl-C stops the solve and raises KeyboardInterrupt.
py::dict solve_optimum(const Simulator& sim, double time_limit_s, double relative_gap,
                       int threads) {
  optimum::SolverOptions options;
  options.time_limit_s = time_limit_s;
  options.relative_gap = relative_gap;
  options.threads = threads;
  options.validate();
  bool interrupted = false;
  optimum::Solution s;
  {
    py::gil_scoped_release release;
    s = optimum::solve(sim, options, [&](const optimum::Progress&) {
      py::gil_scoped_acquire acquire;
      interrupted = PyErr_CheckSignals() != 0;
      return !interrupted;
    });
  }
  if (interrupted) throw py::error_already_set();
  py::dict d;
  d["status"] = std::string(optimum::status_name(s.status));
  d["exact"] = s.exact;
  d["mapping"] = s.mapping ? py::object(mapping_array(*s.mapping)) : py::none();
  d["latency_fs"] = s.mapping ? py::object(py::int_(s.latency_fs)) : py::none();
  d["bound_fs"] = s.bound_fs;
  d["gap"] = s.gap();
  d["seconds"] = s.seconds;
  d["nodes"] = s.nodes;
  return d;
}

// A workload or hardware argument: the object itself, or a shipped name or a path to load.
template <typename T, typename Load>
T object_or_loaded(py::handle value, Load load, const char* what) {
  if (py::isinstance<T>(value)) return value.cast<T>();
  if (const std::optional<std::string> name = path_string(value)) return load(*name);
  throw py::type_error(std::string(what) + " must be a memplace." + what +
                       ", a shipped name or a path");
}

// The model spec of the constructor's keyword arguments (its workload and hardware are loaded
// objects, given or by name).
ModelSpec model_spec(const std::optional<std::string>& memory_time, const std::string& dynamics,
                     std::optional<std::int64_t> lookahead) {
  ModelSpec model;
  if (memory_time) {
    model.memory_time = combine_from_name(*memory_time);
    if (!model.memory_time) {
      throw py::value_error("memory_time must be None, 'max' or 'sum', got '" + *memory_time + "'");
    }
  }
  const auto d = dynamics_from_name(dynamics);
  if (!d) {
    throw py::value_error("dynamics must be one of " + join(dynamics_names(), ", ") + ", got '" +
                          dynamics + "'");
  }
  model.dynamics = *d;
  if (lookahead && *lookahead < 0) throw py::value_error("lookahead must be >= 0");
  model.lookahead = lookahead;
  return model;
}

py::dict layer_dict(const Layer& layer) {
  py::dict d;
  d["name"] = layer.name;
  d["op"] = std::string(op_name(layer.op));
  d["macs"] = layer.macs;
  d["vector_ops"] = layer.vector_ops;
  d["weight_bytes"] = layer.weight_bytes;
  d["weight_traffic_bytes"] = layer.weight_traffic_bytes;
  d["output_bytes"] = layer.output_bytes;
  d["external_input_bytes"] = layer.external_input_bytes;
  py::list inputs;
  for (const InputEdge& e : layer.inputs)
    inputs.append(py::make_tuple(e.producer, e.bytes));
  d["inputs"] = inputs;
  return d;
}

void bind_workload(py::module_& m) {
  py::class_<Workload>(m, "Workload", "A network's layers in schedule order (docs/workloads.md).")
      .def_static("from_yaml", &Workload::from_yaml, py::arg("text"),
                  py::arg("origin") = "<string>")
      .def_property_readonly("name", &Workload::name)
      .def_property_readonly("description", [](const Workload& w) { return w.info().description; })
      .def("__len__", &Workload::size)
      .def_property_readonly("num_layers", &Workload::size)
      .def_property_readonly("num_edges", &Workload::num_edges)
      .def_property_readonly("layer_names",
                             [](const Workload& w) {
                               std::vector<std::string> names;
                               for (const Layer& l : w.layers())
                                 names.push_back(l.name);
                               return names;
                             })
      .def(
          "layer", [](const Workload& w, std::size_t i) { return layer_dict(w.layer(i)); },
          py::arg("index"), "Layer i as a dict (name, op, macs, bytes, inputs).")
      .def_property_readonly("total_macs", &Workload::total_macs)
      .def_property_readonly("total_weight_bytes", &Workload::total_weight_bytes)
      .def_property_readonly("peak_live_activation_bytes", &Workload::peak_live_activation_bytes)
      .def("to_yaml", &Workload::to_yaml)
      .def(
          "save", [](const Workload& w, const std::filesystem::path& p) { w.save(p); },
          py::arg("path"), "Writes the YAML file atomically.")
      .def("__repr__", [](const Workload& w) {
        return "Workload('" + w.name() + "', " + std::to_string(w.size()) + " layers)";
      });
  m.def("load_workload", &load_workload, py::arg("name_or_path"),
        "A shipped workload by name (memplace.list_workloads()) or a workload YAML file.");
}

void bind_hardware(py::module_& m) {
  py::class_<Hardware>(m, "Hardware", "An accelerator's memory hierarchy and compute rates.")
      .def_static("from_yaml", &Hardware::from_yaml, py::arg("text"),
                  py::arg("origin") = "<string>")
      .def_property_readonly("name", [](const Hardware& h) { return h.name; })
      .def_property_readonly("memory_names",
                             [](const Hardware& h) {
                               std::vector<std::string> names;
                               for (const Memory& mem : h.memories)
                                 names.push_back(mem.name);
                               return names;
                             })
      .def_property_readonly("memories",
                             [](const Hardware& h) {
                               py::list out;
                               for (const Memory& mem : h.memories) {
                                 py::dict d;
                                 d["name"] = mem.name;
                                 d["capacity_bytes"] = mem.capacity_bytes;
                                 d["bandwidth_bytes_per_s"] = mem.bandwidth_bytes_per_s;
                                 out.append(d);
                               }
                               return out;
                             })
      .def("to_yaml", &Hardware::to_yaml)
      .def("__repr__", [](const Hardware& h) {
        return "Hardware('" + h.name + "', " + std::to_string(h.num_memories()) + " memories)";
      });
  m.def("load_hardware", &load_hardware, py::arg("name_or_path") = "nnpi",
        "A shipped hardware model by name (memplace.list_hardware()) or a hardware YAML file.");
}

void bind_evaluation(py::module_& m) {
  py::class_<Evaluation>(m, "Evaluation", "The latency and validity of one mapping.")
      .def_readonly("latency_fs", &Evaluation::latency_fs)
      .def_property_readonly("latency_s", &Evaluation::latency_s)
      .def_property_readonly("latency_us",
                             [](const Evaluation& e) { return to_microseconds(e.latency_fs); })
      .def_readonly("valid", &Evaluation::valid)
      .def_readonly("peak_bytes", &Evaluation::peak_bytes)
      .def_readonly("overflow_bytes", &Evaluation::overflow_bytes)
      .def_property_readonly("total_overflow_bytes", &Evaluation::total_overflow_bytes)
      .def_property_readonly("layer_fs",
                             [](const Evaluation& e) {
                               return py::array_t<std::int64_t>(
                                   static_cast<py::ssize_t>(e.layer_fs.size()), e.layer_fs.data());
                             })
      .def("__repr__", [](const Evaluation& e) {
        return "Evaluation(latency_us=" + std::to_string(to_microseconds(e.latency_fs)) +
               ", valid=" + (e.valid ? "True" : "False") + ")";
      });
}

void bind_simulator_class(py::module_& m) {
  py::class_<Simulator>(m, "Simulator",
                        "The cost model for one workload on one hardware model "
                        "(docs/cost-model.md).")
      .def(py::init([](py::handle workload, py::handle hardware,
                       const std::optional<std::string>& memory_time, const std::string& dynamics,
                       std::optional<std::int64_t> lookahead) {
             const ModelSpec model = model_spec(memory_time, dynamics, lookahead);
             return model.build(object_or_loaded<Workload>(workload, load_workload, "Workload"),
                                object_or_loaded<Hardware>(hardware, load_hardware, "Hardware"));
           }),
           py::arg("workload"), py::arg("hardware") = "nnpi", py::arg("memory_time") = py::none(),
           py::arg("dynamics") = "pinned", py::arg("lookahead") = py::none(),
           "dynamics: a registered dynamics' name (memplace.dynamics_names(): pinned is cost model "
           "v0's, streaming v1's, addressed v2's; docs/cost-model.md); lookahead: the DMA's, "
           "overriding the hardware model's")
      .def_property_readonly("workload", &Simulator::workload,
                             py::return_value_policy::reference_internal)
      .def_property_readonly("hardware", &Simulator::hardware,
                             py::return_value_policy::reference_internal)
      .def_property_readonly(
          "memory_time",
          [](const Simulator& s) { return std::string(combine_name(s.memory_time())); })
      .def_property_readonly(
          "dynamics", [](const Simulator& s) { return std::string(dynamics_name(s.dynamics())); })
      .def_property_readonly("num_layers", &Simulator::num_layers)
      .def_property_readonly("num_tensors", &Simulator::num_tensors)
      .def_property_readonly("num_memories", &Simulator::num_memories)
      .def(
          "evaluate",
          [](const Simulator& s, py::handle mapping) {
            return s.evaluate(read_mapping(mapping, s));
          },
          py::arg("mapping"),
          "Scores a mapping (2 * num_layers memory indices: weight, then output, per layer).")
      .def(
          "check_mapping", [](const Simulator& s, py::handle mapping) { read_mapping(mapping, s); },
          py::arg("mapping"), "Raises ValueError naming what is wrong with a mapping.")
      .def(
          "compiler_mapping", [](const Simulator& s) { return mapping_array(compiler_mapping(s)); },
          "The native-compiler stand-in's mapping: the baseline every speedup is measured "
          "against.")
      .def("all_slowest_mapping",
           [](const Simulator& s) { return mapping_array(all_slowest_mapping(s)); })
      .def("lower_bound_fs", &lower_bound_fs, "A latency no mapping can beat.")
      .def(
          "references",
          [](const Simulator& s) {
            const ReferenceLatencies r = reference_latencies(s);
            py::dict d;
            d["all_slowest_fs"] = r.all_slowest_fs;
            d["compiler_fs"] = r.compiler_fs;
            d["lower_bound_fs"] = r.lower_bound_fs;
            const auto c = optimum::shipped_certificate(s);
            d["optimum_status"] =
                c ? py::object(py::str(std::string(status_name(c->status)))) : py::none();
            d["optimum_fs"] = c ? py::object(py::int_(c->latency_fs)) : py::none();
            d["optimum_bound_fs"] = c ? py::object(py::int_(c->bound_fs)) : py::none();
            return d;
          },
          "Latencies of the all-slowest and compiler mappings, the capacity-free lower bound, and "
          "the optimum from the shipped certificates (None where there is none: see optimum()).")
      .def(
          "headroom",
          [](const Simulator& s) {
            optimum::Headroom h;
            {
              py::gil_scoped_release release;
              h = optimum::headroom(s);
            }
            auto optional = [](const std::optional<TimeFs>& t) {
              return t ? py::object(py::int_(*t)) : py::none();
            };
            py::dict d;
            d["all_slowest_fs"] = h.all_slowest_fs;
            d["compiler_fs"] = h.compiler_fs;
            d["pinned_compiler_fs"] = optional(h.pinned_compiler_fs);
            d["all_fast_rectified_fs"] = optional(h.all_fast_rectified_fs);
            d["optimum_fs"] =
                optional(h.certificate ? std::optional(h.certificate->latency_fs) : std::nullopt);
            d["optimum_proven"] =
                h.certificate ? py::object(py::bool_(h.certificate->proven())) : py::none();
            d["best_known_fs"] =
                optional(h.best_known ? std::optional(h.best_known->latency_fs) : std::nullopt);
            d["best_known_source"] =
                h.best_known ? py::object(py::str(h.best_known->source)) : py::none();
            d["capacity_free_bound_fs"] = h.capacity_free_bound_fs;
            d["slowest_port_bound_fs"] = optional(h.slowest_port_bound_fs);
            d["compute_bound_fs"] = optional(h.compute_bound_fs);
            d["capacity_aware_bound_fs"] = optional(h.capacity_aware_bound_fs);
            d["bound_fs"] = h.bound_fs;
            return d;
          },
          "What there is to win (optimum/headroom.hpp), as latencies: all_slowest, compiler, "
          "pinned_compiler (streaming), all_fast_rectified, the shipped optimum (optimum_fs, "
          "optimum_proven), the best known shipped mapping, every bound and the tightest "
          "(bound_fs); None where there is none. Under streaming it solves the capacity-aware LP.")
      .def("optimum", &solve_optimum, py::arg("time_limit_s") = 600.0,
           py::arg("relative_gap") = 0.0, py::arg("threads") = 1,
           "The exact optimum (a MIP solved with CBC, docs/optimum.md): a dict with status "
           "('optimal', 'gap_limit', 'time_limit', 'infeasible'), exact, mapping, latency_fs "
           "(re-scored by the simulator), bound_fs, gap, seconds, nodes. Under streaming the MIP "
           "is a relaxation (exact False): bound_fs holds for every mapping, the mapping is a "
           "candidate (docs/cost-model.md).")
      .def(
          "streaming_bound_fs",
          [](const Simulator& s) {
            if (!has_dma(s.dynamics())) {
              throw py::value_error("streaming_bound_fs() needs a dynamics that runs a DMA, not " +
                                    std::string(s.dynamics().name()));
            }
            py::gil_scoped_release release;
            return optimum::streaming_bound_fs(s);
          },
          "The capacity-aware bound of the streaming dynamics (an LP solved with Clp, "
          "docs/cost-model.md): no valid mapping is faster.")
      .def(
          "rectify",
          [](const Simulator& s, py::handle mapping) {
            const Rectified r = rectify(s, read_mapping(mapping, s));
            return py::make_tuple(mapping_array(r.mapping), r.demotions, r.valid);
          },
          py::arg("mapping"),
          "(mapping, demotions, valid): the mapping repaired as a compiler would "
          "(model/rectify.hpp).")
      .def(
          "load_mapping",
          [](const Simulator& s, const std::filesystem::path& path) {
            return mapping_array(load_mapping(path, s).mapping);
          },
          py::arg("path"), "Reads a mapping file (the format of memplace evaluate).")
      .def(
          "save_mapping",
          [](const Simulator& s, const std::filesystem::path& path, py::handle mapping) {
            const Mapping m = read_mapping(mapping, s);
            const Evaluation e = s.evaluate(m);
            save_mapping(path, s, m, RecordedResult{e.latency_fs, e.valid});
          },
          py::arg("path"), py::arg("mapping"),
          "Writes a mapping file (atomically), with its result for memplace evaluate to re-check.");
}

}  // namespace

void bind_simulator(py::module_& m) {
  bind_workload(m);
  bind_hardware(m);
  bind_evaluation(m);
  bind_simulator_class(m);
}

}  // namespace memplace::python
