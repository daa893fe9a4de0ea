"""memplace: tensor memory placement environments for ML accelerators, from Python.

    import memplace
    env = memplace.make("memplace/sequential/resnet50-v0")
    obs, info = env.reset(seed=42)
    while True:
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    print(info["speedup"])

docs/python.md describes the whole API; docs/tutorial.md writes a first agent.
"""

from memplace._memplace import (
    BudgetExhausted,
    Evaluation,
    Hardware,
    InputError,
    Rng,
    Simulator,
    Workload,
    dynamics_names,
    env_id,
    env_options,
    env_specs,
    list_envs,
    list_hardware,
    list_workloads,
    load_hardware,
    load_workload,
    paper_workloads,
    place,
)
from memplace import spaces
from memplace.batching import pad_observations
from memplace.checker import check_env
from memplace.masking import masked_logits
from memplace.env import Env, VectorEnv, make, make_vec

# The C++ core's version (CMakeLists.txt's project VERSION), also `memplace --version`'s.
from memplace._memplace import __version__  # noqa: E402

__all__ = [
    "Env", "VectorEnv", "make", "make_vec", "check_env", "pad_observations", "masked_logits",
    "list_envs", "env_specs", "env_options", "env_id",
    "spaces", "Simulator", "Evaluation", "Workload", "Hardware", "load_workload",
    "load_hardware", "list_workloads", "list_hardware", "dynamics_names", "paper_workloads", "Rng",
    "InputError",
    "BudgetExhausted", "place",
]
