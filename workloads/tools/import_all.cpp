// Regenerates the shipped workloads/*.yaml and every shipped suite's workloads
// (workloads/suite/workloads/*.yaml) from the ONNX fixtures in workloads/onnx/, and prints the
// Markdown tables of docs/workloads.md and docs/suite.md. The suites are read from the repository
// (workloads/suite/*.yaml), not from the library, so an edited suite imports before a rebuild.
//
//   build/default/workloads/memplace_import_all [repository root]
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include "base/yaml_input.hpp"
#include "workloads/tools/shipped.hpp"

namespace {

void print_header() {
  std::printf(
      "| workload | layers | edges | MACs (G) | weight bytes (MB) | activation bytes (MB) | "
      "peak live activations (MB) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
}

void save_and_print(const memplace::Workload& w, const std::filesystem::path& path) {
  w.save(path);
  std::printf("| %s | %zu | %zu | %.3f | %.2f | %.2f | %.3f |\n", w.name().c_str(), w.size(),
              w.num_edges(), static_cast<double>(w.total_macs()) / 1e9,
              static_cast<double>(w.total_weight_bytes()) / 1e6,
              static_cast<double>(w.total_output_bytes()) / 1e6,
              static_cast<double>(w.peak_live_activation_bytes()) / 1e6);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path root = argc > 1 ? argv[1] : MEMPLACE_SOURCE_DIR;
  try {
    print_header();
    for (const memplace::ShippedWorkload& s : memplace::shipped_workloads())
      save_and_print(memplace::import_shipped(root, s), root / "workloads" / (s.name + ".yaml"));
    const std::filesystem::path suites = root / "workloads" / "suite";
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(suites))
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
      const memplace::Suite suite =
          memplace::parse_suite(memplace::YamlInput::read_file(file), file.string());
      std::printf("\nSuite %s\n\n", suite.name.c_str());
      print_header();
      std::filesystem::create_directories(suites / "workloads");
      for (const memplace::SuiteWorkload& w : suite.workloads)
        save_and_print(memplace::import_suite_workload(root, suite, w),
                       suites / "workloads" / (w.name + ".yaml"));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "memplace_import_all: %s\n", e.what());
    return 1;
  }
  return 0;
}
