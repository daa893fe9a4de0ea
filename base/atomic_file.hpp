// Atomic file writes: readers see the old file or the new one, never a half-written one.
#pragma once

#include <filesystem>
#include <string_view>

namespace memplace {

// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
// `path`. Throws std::runtime_error (naming the path) on any failure; the temporary is removed.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Checks, before any work, that write_file_atomically(path, ...) can succeed, by creating a
// temporary file beside `path` (removed at once); with `create_folders`, creates the missing
// folders first (a default output location), otherwise a missing folder is refused. Throws
// InputError "cannot write <path>: <reason>".
void check_writable(const std::filesystem::path& path, bool create_folders = false);

}  // namespace memplace
