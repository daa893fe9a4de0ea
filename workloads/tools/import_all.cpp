// Regenerates the shipped workloads/*.yaml from the ONNX fixtures in workloads/onnx/ and prints
// the Markdown table of docs/workloads.md.
//
//   build/default/workloads/memplace_import_all [repository root]
#include <cstdio>
#include <exception>
#include <filesystem>

#include "workloads/tools/shipped.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path root = argc > 1 ? argv[1] : MEMPLACE_SOURCE_DIR;
  std::printf(
      "| workload | layers | edges | MACs (G) | weight bytes (MB) | activation bytes (MB) | "
      "peak live activations (MB) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  try {
    for (const memplace::ShippedWorkload& s : memplace::shipped_workloads()) {
      const memplace::Workload w = memplace::import_shipped(root, s);
      w.save(root / "workloads" / (s.name + ".yaml"));
      std::printf("| %s | %zu | %zu | %.3f | %.2f | %.2f | %.3f |\n", s.name.c_str(), w.size(),
                  w.num_edges(), static_cast<double>(w.total_macs()) / 1e9,
                  static_cast<double>(w.total_weight_bytes()) / 1e6,
                  static_cast<double>(w.total_output_bytes()) / 1e6,
                  static_cast<double>(w.peak_live_activation_bytes()) / 1e6);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "memplace_import_all: %s\n", e.what());
    return 1;
  }
  return 0;
}
