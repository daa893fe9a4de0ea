// The workloads that ship in workloads/*.yaml and in the suites' workloads/suite/workloads/, and
// how each is imported from workloads/onnx/. Shared by the regeneration driver (import_all.cpp)
// and the golden tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/inputs/suite.hpp"
#include "workloads/tools/onnx_import.hpp"

namespace memplace {

struct ShippedWorkload {
  std::string name;         // workloads/<name>.yaml, workloads/onnx/<name>.onnx
  std::string description;  // the network and its input size
  std::string model;        // how workloads/tools/export_onnx.py builds it
};

const std::vector<ShippedWorkload>& shipped_workloads();

// The exact options that produced workloads/<w.name>.yaml (standard preset, int8).
ImportOptions shipped_import_options(const ShippedWorkload& w);

// Imports workloads/onnx/<w.name>.onnx under the repository root `root`.
Workload import_shipped(const std::filesystem::path& root, const ShippedWorkload& w);

// The options a suite names for its workload `w` (its dims, static inputs and element type, the
// standard preset), with the suite's description and source.
ImportOptions suite_import_options(const Suite& suite, const SuiteWorkload& w);

// Imports `w`'s fixture under the repository root `root`.
Workload import_suite_workload(const std::filesystem::path& root, const Suite& suite,
                               const SuiteWorkload& w);

}  // namespace memplace
