// What the one-tensor-per-step environments (sequential, malloc env) expose beyond the
// observation, for agents that need more (a search, a decoder of the final mapping): shared by the
// single and vector env bindings. Each is None for the other kinds.
#pragma once

#include "env/env.hpp"
#include "python/bindings/bindings.hpp"

namespace memplace::python {

// The tensor ids in the order the episode places them.
py::object placement_order(const Env& env);
// The tensor the next step places; None when no episode is running.
py::object current_tensor(const Env& env);
// Each tensor's memory so far.
py::object mapping(const Env& env);

}  // namespace memplace::python
