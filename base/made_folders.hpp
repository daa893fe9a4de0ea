// Folders a command makes for its output, removed again when it refuses its input: a request
// refused as bad input leaves nothing behind. Some inputs can only be checked once the output
// folder holds something (`memplace place` reads an ONNX model's workload back from it).
#pragma once

#include <filesystem>
#include <system_error>
#include <utility>

#include "base/errors.hpp"

namespace memplace {

// The outermost folder of `path` that does not exist yet (what create_directories makes first);
// empty if `path` exists.
inline std::filesystem::path outermost_missing(const std::filesystem::path& path) {
  std::filesystem::path missing;
  for (std::filesystem::path p = path; !p.empty() && !std::filesystem::exists(p);
       p = p.parent_path()) {
    missing = p;
    if (p == p.parent_path()) break;
  }
  return missing;
}

// `run()`, which makes `folder` (and any folders above it) and writes into it; if it throws
// InputError, the folders it made are removed before the error goes on. Folders that were there
// before stay, and so does everything on any other error (an interrupted fine-tune resumes from
// its folder).
template <typename Run>
decltype(auto) removing_made_folders_on_bad_input(const std::filesystem::path& folder, Run&& run) {
  const std::filesystem::path made = outermost_missing(folder);
  try {
    return std::forward<Run>(run)();
  } catch (const InputError&) {
    std::error_code ignored;
    if (!made.empty()) std::filesystem::remove_all(made, ignored);
    throw;
  }
}

}  // namespace memplace
