// memplace import MODEL.onnx -o W.yaml: turn an ONNX model into a workload (docs/workloads.md).
#include <limits>

#include "apps/commands.hpp"
#include "apps/shared/onnx_dims.hpp"
#include "apps/shared/text_table.hpp"
#include "apps/shared/validators.hpp"
#include "base/atomic_file.hpp"
#include "base/whole_number.hpp"
#include "workloads/tools/onnx_import.hpp"

namespace memplace::cli {

namespace {

struct ImportCommandOptions {
  std::string model;
  std::string output;
  std::string fusion = "standard";
  std::vector<std::string> dims;  // name=value
  std::string element_type;       // empty: --element-bytes
  ImportOptions import;
};

void run_import(const ImportCommandOptions& o, Streams io) {
  ImportOptions options = o.import;
  options.fusion = *fusion_preset_from_name(o.fusion);  // validated by CLI11
  parse_dims(o.dims, options);
  if (!o.element_type.empty()) options.element_bytes = *element_type_bytes(o.element_type);
  const bool to_stdout = o.output.empty() || o.output == "-";
  if (!to_stdout) check_writable(o.output);
  const Workload w = import_onnx(o.model, options);
  if (to_stdout) {
    io.out << w.to_yaml();
    return;
  }
  w.save(o.output);
  io.out << "wrote " << o.output << ": " << w.name() << ", " << w.size() << " layers, "
         << w.num_edges() << " edges, " << format_count(static_cast<double>(w.total_macs()))
         << " MACs, " << format_bytes(static_cast<double>(w.total_weight_bytes()))
         << " of weights\n";
}

}  // namespace

void add_import_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand("import", "Import an ONNX model as a workload YAML file");
  auto o = std::make_shared<ImportCommandOptions>();
  cmd->add_option("model", o->model, "ONNX file (weights may be stripped: only shapes are read)")
      ->required();
  cmd->add_option("-o,--output", o->output, "Workload YAML to write (atomically); default: stdout")
      ->check(kNonEmptyName);
  cmd->add_option("--name", o->import.name, "Workload name (default: the file's stem)");
  cmd->add_option("--fusion", o->fusion,
                  "Fusion preset: standard (EGRL granularity), coarse (fewer, larger layers) or "
                  "none (one layer per ONNX op)")
      ->check(CLI::IsMember(fusion_preset_names()))
      ->capture_default_str();
  auto* bytes = cmd->add_option("--element-bytes", o->import.element_bytes,
                                "Bytes per tensor element (1 = int8, 2 = fp16/bf16, 4 = fp32)")
                    ->transform(whole_number(1, 16))
                    ->capture_default_str();
  cmd->add_option("--element-type", o->element_type,
                  "The element type by name, for its bytes: int8, fp8 (1), fp16, bf16 (2), fp32 "
                  "(4)")
      ->check(CLI::IsMember(element_type_names()))
      ->excludes(bytes);
  cmd->add_option("--dim", o->dims,
                  "A symbolic input dimension's value, name=value (repeatable): --dim batch=8 "
                  "--dim sequence=512 (docs/workloads.md, shapes)");
  cmd->add_option("--dynamic-dim", o->import.dynamic_dim,
                  "Value for the symbolic input dimensions no --dim names (0: leave them "
                  "symbolic; a layer that needs one is then an error)")
      ->transform(whole_number(0, std::numeric_limits<std::int64_t>::max()))
      ->capture_default_str();
  cmd->add_option("--static-input", o->import.static_inputs,
                  "A graph input that is data the model reads, such as a decode step's KV cache "
                  "(repeatable; * matches any run of characters): it becomes a weight of the "
                  "layer that reads it");
  cmd->callback([io, o] { run_import(*o, io); });
}

}  // namespace memplace::cli
