"""W14 deep graphs: the time per node of a chain of scalar ops (``x * 1.0001``, ``x + 0.0001`` alternating)
and its backward, at 10^3, 10^4 and 10^5 nodes. A flat engine takes the same time per node at every depth;
what grows is the cyclic garbage collector's work (each full collection walks every object the graph holds)."""

from __future__ import annotations

import time

from . import Skip, import_torch
from .w4_deep_chain import chain

NAME = "W14"
TITLE = "deep graph: time per node (scalar chain + backward) at 10^3, 10^4, 10^5 nodes"
UNIT = "us/node"
SIZES = {"1e3": 1_000, "1e4": 10_000, "1e5": 100_000}
PEERS = tuple(f"{lib}_{size}" for lib in ("minigrad", "torch") for size in SIZES)
MINIGRAD_PEERS = tuple(p for p in PEERS if p.startswith("minigrad"))
SUBJECT = "minigrad_1e3"
TARGETS = {("minigrad_1e5", "minigrad_1e3"): 1.15}  # ratio <= target (issue 31)
RATIOS = (
    ("minigrad_1e4", "minigrad_1e3"),
    ("minigrad_1e5", "minigrad_1e3"),
    ("torch_1e5", "torch_1e3"),
    ("minigrad_1e5", "torch_1e5"),
)


def params(quick: bool) -> dict:
    return {"scale": 0.01 if quick else 1.0}


def per_unit(p: dict) -> float:
    return 1e-6  # runs report seconds per node


def build(peer: str, p: dict):
    lib_name, _, size = peer.partition("_")
    nodes = max(10, int(SIZES[size] * p["scale"]))
    repeats = max(1, 100_000 // nodes)  # about 10^5 nodes a run at every depth
    if lib_name == "minigrad":
        import minigrad as lib

        dtype = lib.float64
    elif lib_name == "torch":
        lib = import_torch()
        dtype = lib.float64
    else:
        raise Skip(f"no {peer} peer")

    def run():
        wall = cpu = 0.0
        check = 0.0
        for _ in range(repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            x = lib.tensor(1.0, dtype=dtype, requires_grad=True)
            chain(x, nodes).backward()
            check = float(x.grad.item())
            del x
            wall += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
        per = nodes * repeats
        return {"check": check, "wall": wall / per, "cpu": cpu / per}

    return run, {"nodes": nodes, "chains per run": repeats}
