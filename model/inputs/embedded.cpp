#include "model/inputs/embedded.hpp"

#include <system_error>

#include "base/errors.hpp"

namespace memplace {

const EmbeddedFile* find_embedded(std::span<const EmbeddedFile> files, std::string_view name) {
  for (const EmbeddedFile& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> embedded_names(std::span<const EmbeddedFile> files) {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : files)
    names.emplace_back(f.name);
  return names;
}

ShippedOrFile locate_shipped_or_file(std::span<const EmbeddedFile> shipped, std::string_view folder,
                                     std::string_view kind, std::string_view shipped_kind,
                                     std::string_view name_or_path) {
  ShippedOrFile where;
  if ((where.shipped = find_embedded(shipped, name_or_path))) {
    where.origin = std::string(folder) + "/" + std::string(name_or_path) + ".yaml";
    return where;
  }
  where.path = std::filesystem::path(name_or_path);
  // The error_code overload: a name the system cannot look up (too long, say) is bad input too,
  // not a filesystem_error (found by fuzzing the table config).
  std::error_code error;
  if (!std::filesystem::exists(where.path, error)) {
    std::string list;
    for (const EmbeddedFile& f : shipped)
      list += (list.empty() ? "" : ", ") + std::string(f.name);
    throw InputError(std::string(name_or_path) + ": no such " + std::string(kind) + " file" +
                     (error ? " (" + error.message() + ")" : std::string()) +
                     ", and not a shipped " + std::string(shipped_kind) + " (" +
                     (list.empty() ? std::string("none shipped") : list) + ")");
  }
  return where;
}

}  // namespace memplace
