// The registered dynamics, in the order of the cost models that brought them: one line each,
// naming the function of model/dynamics/<name>_dynamics.cpp that returns its DynamicsModel.
// Dynamics::pinned, ::streaming and ::addressed are the first three places; keep them there.
#pragma once

#define MEMPLACE_DYNAMICS(DYNAMICS) \
  DYNAMICS(pinned_dynamics)         \
  DYNAMICS(streaming_dynamics)      \
  DYNAMICS(addressed_dynamics)      \
  /* end of the list */
