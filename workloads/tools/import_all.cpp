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
#include <string>
#include <vector>

#include "base/markdown_table.hpp"
#include "base/number_format.hpp"
#include "base/yaml_input.hpp"
#include "workloads/tools/shipped.hpp"

namespace {

using memplace::MarkdownTable;

// The tables of docs/workloads.md and docs/suite.md: one row per imported workload.
MarkdownTable workload_table() {
  const auto right = MarkdownTable::Align::right;
  return MarkdownTable({{"workload"},
                        {"layers", right},
                        {"edges", right},
                        {"MACs (G)", right},
                        {"weight bytes (MB)", right},
                        {"activation bytes (MB)", right},
                        {"peak live activations (MB)", right}});
}

void save_and_add(const memplace::Workload& w, const std::filesystem::path& path,
                  MarkdownTable& table) {
  using memplace::format_fixed;
  w.save(path);
  table.add_row({w.name(), std::to_string(w.size()), std::to_string(w.num_edges()),
                 format_fixed(static_cast<double>(w.total_macs()) / 1e9, 3),
                 format_fixed(static_cast<double>(w.total_weight_bytes()) / 1e6, 2),
                 format_fixed(static_cast<double>(w.total_output_bytes()) / 1e6, 2),
                 format_fixed(static_cast<double>(w.peak_live_activation_bytes()) / 1e6, 3)});
  std::fprintf(stderr, "imported %s\n", w.name().c_str());  // progress: an import takes seconds
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path root = argc > 1 ? argv[1] : MEMPLACE_SOURCE_DIR;
  try {
    MarkdownTable shipped = workload_table();
    for (const memplace::ShippedWorkload& s : memplace::shipped_workloads())
      save_and_add(memplace::import_shipped(root, s), root / "workloads" / (s.name + ".yaml"),
                   shipped);
    std::printf("%s", shipped.str().c_str());
    const std::filesystem::path suites = root / "workloads" / "suite";
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(suites))
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
      const memplace::Suite suite =
          memplace::parse_suite(memplace::YamlInput::read_file(file), file.string());
      std::filesystem::create_directories(suites / "workloads");
      MarkdownTable table = workload_table();
      for (const memplace::SuiteWorkload& w : suite.workloads)
        save_and_add(memplace::import_suite_workload(root, suite, w),
                     suites / "workloads" / (w.name + ".yaml"), table);
      std::printf("\nSuite %s\n\n%s", suite.name.c_str(), table.str().c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "memplace_import_all: %s\n", e.what());
    return 1;
  }
  return 0;
}
