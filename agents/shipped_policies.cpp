#include "agents/shipped_policies.hpp"

#include "base/atomic_file.hpp"
#include "base/state_archive.hpp"

namespace memplace::agents {

std::vector<std::string> shipped_policy_names() {
  return embedded_names(embedded_policies());
}

std::optional<PolicyFile> load_shipped_policy(std::string_view name) {
  const EmbeddedFile* file = find_embedded(embedded_policies(), name);
  if (file == nullptr) return std::nullopt;
  return read_policy(
      StateReader(std::string(file->text), "the shipped policy " + std::string(name)));
}

std::optional<std::string> shipped_policy_for(std::string_view chip) {
  const std::string name = "ppo-" + std::string(chip);
  if (find_embedded(embedded_policies(), name) == nullptr) return std::nullopt;
  return name;
}

void write_shipped_policy(std::string_view name, const std::filesystem::path& path) {
  const EmbeddedFile* file = find_embedded(embedded_policies(), name);
  if (file == nullptr)
    throw std::invalid_argument("write_shipped_policy: no shipped policy " + std::string(name));
  write_file_atomically(path, file->text);
}

}  // namespace memplace::agents
