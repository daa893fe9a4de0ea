"""Padding observations of different workloads into one batch (docs/python.md, "Batches across
workloads"): the Python side of the C++ ``memplace::pad`` (env/observation.hpp)."""

from __future__ import annotations

import numpy as np

__all__ = ["pad_observations"]

_PER_NODE = ("nodes", "node_state")


def _copies(obs: dict) -> list[dict]:
    """A single env's observation as it is; a vector env's split into its copies."""
    if not isinstance(obs, dict) or "nodes" not in obs:
        raise TypeError("pad_observations takes observation dicts (from reset or step), got "
                        f"{type(obs).__name__}")
    if np.ndim(obs["nodes"]) == 3:
        return [{key: value[i] for key, value in obs.items()} for i in range(len(obs["nodes"]))]
    return [obs]


def _widest(items: list[dict], key: str, axis: int) -> int:
    return max(np.shape(o[key])[axis] for o in items)


def _check_at_most(name: str, given: int | None, needed: int) -> int:
    if given is None:
        return needed
    if given < needed:
        raise ValueError(f"pad_observations: {name}={given} is below the largest in the batch "
                         f"({needed})")
    return given


def pad_observations(observations, max_nodes: int | None = None, max_edges: int | None = None,
                     max_actions: int | None = None) -> dict:
    """One batch from observations of environments of the same kind and version but different
    workloads or chips (N nodes, E edges and M memories may differ). Each item is a single env's
    observation dict or a vector env's (split into its copies). The maxima default to the
    largest in the batch. Returns a dict of writable arrays with a leading batch axis B:

    - ``nodes`` (B, max_nodes, F) and ``node_state`` (B, max_nodes, D): padding rows are 0;
    - ``node_mask`` (B, max_nodes) bool: True on real nodes;
    - ``edge_links`` (B, max_edges, 2) int64: padding edges are 0 -> 0; ``edge_mask`` (B,
      max_edges) bool;
    - ``action_mask`` (B, max_actions) int8: padding actions are 0 (not allowed);
    - ``occupancy`` (B, max memories, 32, 32), when the observations have one (padding grids 0).

    Raises ValueError when the feature columns differ (another env kind or version) or a maximum
    is below what the batch needs."""
    items = [copy for obs in observations for copy in _copies(obs)]
    if not items:
        raise ValueError("pad_observations: no observations")
    for key in _PER_NODE:
        widths = {np.shape(o[key])[1] for o in items}
        if len(widths) > 1:
            raise ValueError(f"pad_observations: {key} has {sorted(widths)} columns across the "
                             "batch; pad observations of one env kind and version")
    has_grid = {"occupancy" in o for o in items}
    if len(has_grid) > 1:
        raise ValueError("pad_observations: some observations have an occupancy grid, some not")
    n = _check_at_most("max_nodes", max_nodes, _widest(items, "nodes", 0))
    e = _check_at_most("max_edges", max_edges, _widest(items, "edge_links", 0))
    a = _check_at_most("max_actions", max_actions, _widest(items, "action_mask", 0))
    b = len(items)
    out = {
        "nodes": np.zeros((b, n, np.shape(items[0]["nodes"])[1]), np.float32),
        "node_state": np.zeros((b, n, np.shape(items[0]["node_state"])[1]), np.float32),
        "node_mask": np.zeros((b, n), bool),
        "edge_links": np.zeros((b, e, 2), np.int64),
        "edge_mask": np.zeros((b, e), bool),
        "action_mask": np.zeros((b, a), np.int8),
    }
    if has_grid == {True}:
        g = _widest(items, "occupancy", 0)
        out["occupancy"] = np.zeros((b, g) + np.shape(items[0]["occupancy"])[1:], np.float32)
    for i, o in enumerate(items):
        nodes, edges, actions = len(o["nodes"]), len(o["edge_links"]), len(o["action_mask"])
        for key in _PER_NODE:
            out[key][i, :nodes] = o[key]
        out["node_mask"][i, :nodes] = True
        out["edge_links"][i, :edges] = o["edge_links"]
        out["edge_mask"][i, :edges] = True
        out["action_mask"][i, :actions] = o["action_mask"]
        if "occupancy" in out:
            out["occupancy"][i, :len(o["occupancy"])] = o["occupancy"]
    return out
