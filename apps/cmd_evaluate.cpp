// memplace evaluate WORKLOAD MAPPING.yaml: check and score a mapping file, and re-check the
// result recorded in it (a replayable result, as CompilerGym's validate does).
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "allocation/csv.hpp"
#include "allocation/packer.hpp"
#include "apps/commands.hpp"
#include "apps/shared/cli_model.hpp"
#include "apps/shared/text_table.hpp"
#include "apps/shared/validators.hpp"
#include "base/atomic_file.hpp"
#include "base/yaml_input.hpp"
#include "model/dynamics/addressed.hpp"
#include "model/mapping_io.hpp"
#include "model/model_spec.hpp"
#include "model/references.hpp"
#include "model/tensor_allocation.hpp"

namespace memplace::cli {

namespace {

struct EvaluateOptions {
  std::string workload;
  std::string mapping_path;
  std::string hardware;  // where to load the file's hardware from, if not a shipped name
  ModelOverrides model;  // unset: the file's recorded model
  bool json = false;
  bool per_layer = false;
  bool allocation = false;
  std::string allocation_csv;  // a folder for each on-chip memory's allocation problem
};

// How an allocation verdict is decided: the greedy portfolio, then the exact search up to a
// placement limit, so the verdict is the same on any machine.
constexpr std::uint64_t kAllocationPlacements = 200'000;

struct AllocationRow {
  std::string memory;
  std::size_t tensors = 0;
  std::int64_t peak = 0;
  std::int64_t capacity = 0;
  std::optional<std::int64_t> greedy_height;  // none if no greedy packing finished in time
  std::string verdict;                        // allocatable, not allocatable, unknown
  std::string how;
};

// The allocation problem of every memory but the slowest (docs/allocation.md), solved.
std::vector<AllocationRow> allocation_rows(const Simulator& sim,
                                           std::span<const MemoryIndex> mapping,
                                           const std::string& csv_folder) {
  std::vector<AllocationRow> rows;
  for (std::size_t m = 0; m + 1 < sim.num_memories(); ++m) {
    const allocation::Problem problem = tensor_allocation_problem(sim, mapping, m);
    const std::string& name = sim.hardware().memories[m].name;
    if (!csv_folder.empty())
      write_file_atomically(std::filesystem::path(csv_folder) / (name + ".csv"),
                            allocation::allocation_csv(problem.buffers));
    const allocation::PackResult r = allocation::pack(problem, {3600, kAllocationPlacements});
    AllocationRow row{
        name, problem.buffers.size(), r.peak, problem.capacity, r.greedy_height, "", r.method};
    switch (r.outcome) {
      case allocation::SearchOutcome::packed:
        row.verdict = "allocatable";
        break;
      case allocation::SearchOutcome::infeasible:
        row.verdict = "NOT allocatable";
        break;
      case allocation::SearchOutcome::limit:
        row.verdict = "unknown";
        row.how =
            "exact search stopped at " + std::to_string(kAllocationPlacements) + " placements";
        break;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// What the addressed dynamics did with a mapping's addresses.
struct AddressSummary {
  std::vector<bool> packed;  // per memory
  std::size_t copies = 0, on_time = 0, delayed = 0, dropped = 0;
};

AddressSummary address_summary(const AddressedLayout& layout) {
  AddressSummary s{layout.packed};
  for (const AddressedLayout::StagedCopy& c : layout.copies) {
    ++s.copies;
    if (c.offset < 0) {
      ++s.dropped;
    } else if (c.start > c.copy.issue) {
      ++s.delayed;
    } else {
      ++s.on_time;
    }
  }
  return s;
}

// The mapping's evaluation; under a dynamics that gives addresses, with where they went.
Evaluation evaluate_with_layout(const Simulator& sim, std::span<const MemoryIndex> mapping,
                                AddressedLayout& layout) {
  if (!sim.dynamics_model().gives_addresses()) return sim.evaluate(mapping);
  Evaluation eval;
  sim.evaluate(mapping, eval, layout);
  return eval;
}

void run_evaluate(const EvaluateOptions& o, Streams io) {
  const std::string text = YamlInput::read_file(o.mapping_path);
  const MappingHeader header = read_mapping_header(text, o.mapping_path);
  // Score under the model the recorded result was made with, unless told otherwise.
  ModelSpec model = header.model;
  o.model.apply_to(model);
  Hardware hardware;
  if (!o.hardware.empty()) {
    hardware = load_hardware(o.hardware);
    if (hardware.name != header.model.hardware) {
      throw InputError(input_error_message(o.mapping_path, header.hardware_line, "hardware",
                                           "this mapping is for hardware '" +
                                               header.model.hardware + "', not '" + hardware.name +
                                               "'"));
    }
  } else {
    try {
      hardware = load_hardware(header.model.hardware);
    } catch (const InputError& e) {
      throw InputError(input_error_message(o.mapping_path, header.hardware_line, "hardware",
                                           std::string(e.what()) + " (--hardware FILE loads it)"));
    }
  }
  const Simulator sim = model.build(load_workload(o.workload), std::move(hardware));
  const MappingFile file = parse_mapping(text, o.mapping_path, sim);
  AddressedLayout layout;
  const Evaluation eval = evaluate_with_layout(sim, file.mapping, layout);
  const TimeFs compiler = sim.evaluate(compiler_mapping(sim)).latency_fs;
  const double gain = speedup(compiler, eval.latency_fs);
  // A result recorded under another memory-time rule or dynamics cannot be re-checked here.
  const bool comparable = file.recorded && file.header.scored_like(sim);
  const bool replay_ok = !comparable || (file.recorded->latency_fs == eval.latency_fs &&
                                         file.recorded->valid == eval.valid);
  const Hardware& hw = sim.hardware();
  if (!o.allocation_csv.empty())
    check_writable(std::filesystem::path(o.allocation_csv) / "x.csv", true);
  const bool addressed = sim.dynamics_model().gives_addresses();
  const AddressSummary addresses = addressed ? address_summary(layout) : AddressSummary{};
  const std::vector<AllocationRow> allocations =
      o.allocation || !o.allocation_csv.empty()
          ? allocation_rows(sim, file.mapping, o.allocation_csv)
          : std::vector<AllocationRow>{};

  if (o.json) {
    nlohmann::json doc = {{"workload", sim.workload().name()},
                          {"hardware", hw.name},
                          {"valid", eval.valid},
                          {"latency_fs", eval.latency_fs},
                          {"latency_us", to_microseconds(eval.latency_fs)},
                          {"compiler_latency_fs", compiler},
                          {"speedup", gain},
                          {"overflow_bytes", eval.total_overflow_bytes()}};
    for (std::size_t m = 0; m < hw.num_memories(); ++m) {
      doc["memories"].push_back({{"name", hw.memories[m].name},
                                 {"capacity_bytes", hw.memories[m].capacity_bytes},
                                 {"peak_bytes", eval.peak_bytes[m]},
                                 {"overflow_bytes", eval.overflow_bytes[m]}});
    }
    doc["memory_time"] = std::string(combine_name(sim.memory_time()));
    doc["dynamics"] = std::string(dynamics_name(sim.dynamics()));
    if (comparable) doc["recorded_result_matches"] = replay_ok;
    if (addressed) {
      doc["addresses"] = {{"staging_copies", addresses.copies},
                          {"copies_on_time", addresses.on_time},
                          {"copies_delayed", addresses.delayed},
                          {"copies_dropped", addresses.dropped}};
      for (std::size_t m = 0; m + 1 < hw.num_memories(); ++m)
        doc["addresses"]["packed"][hw.memories[m].name] = addresses.packed[m];
    }
    for (const AllocationRow& a : allocations)
      doc["allocation"].push_back(
          {{"memory", a.memory},
           {"tensors", a.tensors},
           {"peak_bytes", a.peak},
           {"capacity_bytes", a.capacity},
           {"greedy_height_bytes",
            a.greedy_height ? nlohmann::json(*a.greedy_height) : nlohmann::json()},
           {"verdict", a.verdict},
           {"decided_by", a.how}});
    if (o.per_layer) {
      for (std::size_t l = 0; l < sim.num_layers(); ++l) {
        doc["layers"].push_back(
            {{"name", sim.workload().layer(l).name}, {"latency_fs", eval.layer_fs[l]}});
      }
    }
    io.out << doc.dump(2) << "\n";
  } else {
    io.out << o.mapping_path << ": " << (eval.valid ? "valid" : "INVALID") << ", latency "
           << format_fixed(to_microseconds(eval.latency_fs), 3) << " us, speedup over compiler "
           << format_fixed(gain, 4) << "\n\n";
    TextTable table({"memory", "capacity", "peak use", "overflow"});
    for (std::size_t m = 0; m < hw.num_memories(); ++m) {
      table.add_row({hw.memories[m].name,
                     format_bytes(static_cast<double>(hw.memories[m].capacity_bytes)),
                     format_bytes(static_cast<double>(eval.peak_bytes[m])),
                     format_bytes(static_cast<double>(eval.overflow_bytes[m]))});
    }
    table.print(io.out);
    if (addressed) {
      io.out << "\naddresses (cost model v2): tensors packed in ";
      for (std::size_t m = 0; m + 1 < hw.num_memories(); ++m)
        io.out << (m ? ", " : "") << hw.memories[m].name << " "
               << (addresses.packed[m] ? "yes" : "NO");
      io.out << "; staging copies " << addresses.copies << ": " << addresses.on_time
             << " at their v1 issue, " << addresses.delayed << " delayed, " << addresses.dropped
             << " without a free range\n";
    }
    if (!allocations.empty()) {
      io.out << "\nallocation (addresses for the tensors in each on-chip memory, "
                "docs/allocation.md):\n";
      TextTable alloc({"memory", "tensors", "peak use", "capacity", "best greedy height",
                       "allocatable", "decided by"});
      for (const AllocationRow& a : allocations)
        alloc.add_row({a.memory, std::to_string(a.tensors),
                       format_bytes(static_cast<double>(a.peak)),
                       format_bytes(static_cast<double>(a.capacity)),
                       a.greedy_height ? format_bytes(static_cast<double>(*a.greedy_height))
                                       : std::string("-"),
                       a.verdict, a.how});
      alloc.print(io.out);
    }
    if (o.per_layer) {
      io.out << "\n";
      TextTable layers({"layer", "weight", "activation", "time (us)"});
      for (std::size_t l = 0; l < sim.num_layers(); ++l) {
        layers.add_row({sim.workload().layer(l).name,
                        hw.memories[file.mapping[tensor_id(l, TensorKind::weight)]].name,
                        hw.memories[file.mapping[tensor_id(l, TensorKind::activation)]].name,
                        format_fixed(to_microseconds(eval.layer_fs[l]), 3)});
      }
      layers.print(io.out);
    }
    if (comparable) {
      io.out << "\nrecorded result: " << (replay_ok ? "reproduced exactly" : "DOES NOT MATCH")
             << "\n";
    } else if (file.recorded) {
      io.out << "\nrecorded result: scored under another memory-time rule or dynamics; not "
                "re-checked under "
             << combine_name(sim.memory_time()) << ", " << dynamics_name(sim.dynamics()) << "\n";
    }
  }
  if (!replay_ok) {
    throw std::runtime_error(
        o.mapping_path + ": recorded result (latency_fs " +
        std::to_string(file.recorded->latency_fs) + ", valid " +
        (file.recorded->valid ? "true" : "false") + ") does not match the simulator (latency_fs " +
        std::to_string(eval.latency_fs) + ", valid " + (eval.valid ? "true" : "false") + ")");
  }
}

}  // namespace

void add_evaluate_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "evaluate", "Check and score a mapping file (and re-check the result recorded in it)");
  auto options = std::make_shared<EvaluateOptions>();
  cmd->add_option("workload", options->workload, "A shipped workload name or a workload YAML file")
      ->required();
  cmd->add_option("mapping", options->mapping_path,
                  "Mapping YAML file (names its workload and hardware)")
      ->required();
  cmd->add_option("--hardware", options->hardware,
                  "A hardware YAML file for the hardware the mapping names (default: the shipped "
                  "model of that name)");
  add_model_override_options(*cmd, options->model, "the file's recorded result's");
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->add_flag("--layers", options->per_layer, "Also print each layer's memories and time");
  cmd->add_flag("--allocation", options->allocation,
                "Also say whether the tensors in each on-chip memory can be given addresses "
                "(memplace pack's greedy packings, then its exact search up to 200,000 "
                "placements; docs/allocation.md)");
  cmd->add_option("--allocation-csv", options->allocation_csv,
                  "Write each on-chip memory's allocation problem to FOLDER/<memory>.csv, for "
                  "memplace pack (implies --allocation)")
      ->check(kNonEmptyName);
  cmd->callback([io, options] { run_evaluate(*options, io); });
}

}  // namespace memplace::cli
