#include "python/bindings/env_state.hpp"

#include <stdexcept>
#include <vector>

#include "env/malloc/malloc_env.hpp"
#include "env/sequential_env.hpp"

namespace memplace::python {

py::object placement_order(const Env& env) {
  if (const auto* game = dynamic_cast<const MallocEnv*>(&env))
    return py::cast(
        std::vector<std::size_t>(game->placement_order().begin(), game->placement_order().end()));
  if (const auto* seq = dynamic_cast<const SequentialEnv*>(&env))
    return py::cast(
        std::vector<std::size_t>(seq->placement_order().begin(), seq->placement_order().end()));
  return py::none();
}

py::object current_tensor(const Env& env) {
  try {
    if (const auto* game = dynamic_cast<const MallocEnv*>(&env))
      return py::int_(game->current_tensor());
    if (const auto* seq = dynamic_cast<const SequentialEnv*>(&env))
      return py::int_(seq->current_tensor());
  } catch (const std::logic_error&) {  // the episode has ended (or not begun)
  }
  return py::none();
}

py::object mapping(const Env& env) {
  std::span<const MemoryIndex> m;
  if (const auto* game = dynamic_cast<const MallocEnv*>(&env))
    m = game->mapping();
  else if (const auto* seq = dynamic_cast<const SequentialEnv*>(&env))
    m = seq->mapping();
  else
    return py::none();
  return py::cast(std::vector<int>(m.begin(), m.end()));
}

}  // namespace memplace::python
