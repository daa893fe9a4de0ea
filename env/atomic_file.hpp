// Atomic file writes: readers see the old file or the new one, never a half-written one.
#pragma once

#include <filesystem>
#include <string_view>

namespace memplace {

// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
// `path`. Throws std::runtime_error (naming the path) on any failure; the temporary is removed.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Checks, before long work, that write_file_atomically(path, ...) can succeed: creates the missing
// parent folders and a temporary file beside `path` (removed at once). Throws
// std::invalid_argument "cannot write <path>: <reason>" otherwise.
void check_writable(const std::filesystem::path& path);

}  // namespace memplace
