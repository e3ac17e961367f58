"""W14b deep graphs: the memory a recorded graph holds per node (tracemalloc, a 10^5-node scalar chain
before backward: each node's tensor, array, parents and rule)."""

from __future__ import annotations

import gc
import tracemalloc

from .w4_deep_chain import chain

NAME = "W14b"
TITLE = "deep graph: bytes per node of a 10^5-node scalar chain (tracemalloc)"
UNIT = "B/node"
PEERS = ("minigrad",)
LIMITS = {"minigrad": 550.0}  # bytes per node (issue 31)


def params(quick: bool) -> dict:
    return {"nodes": 2_000 if quick else 100_000}


def per_unit(p: dict) -> float:
    return 1.0


def build(peer: str, p: dict):
    import minigrad as mg

    nodes = p["nodes"]

    def run():
        gc.collect()
        tracemalloc.start()
        try:
            x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
            y = chain(x, nodes)
            held = tracemalloc.get_traced_memory()[0] / nodes
        finally:
            tracemalloc.stop()
        y.backward()
        return {"check": float(x.grad.item()), "wall": held, "cpu": held}

    return run, {"nodes": nodes}
