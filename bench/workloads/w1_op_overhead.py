"""W1 op overhead: a (4, 4) float64 tensor through 1 000 ops cycling ``+c``, ``*c``, ``tanh``,
then sum and backward. Tiny tensors, so the time is the framework's per-op overhead."""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

NAME = "W1"
TITLE = "op overhead, (4,4) float64, 1000 ops + backward"
UNIT = "us/op"
PEERS = ("minigrad", "torch", "numpy", "micrograd")
TARGETS = {("minigrad", "torch"): 1.0}  # ratio <= target
ADD, MUL = 0.5, 0.9


def params(quick: bool) -> dict:
    return {"ops": 60 if quick else 1000, "shape": [4, 4]}


def per_unit(p: dict) -> float:
    return p["ops"] / 1e6


def chain(x, ops: int):
    """The forward chain, written once for every tensor library with ``+``, ``*`` and ``.tanh()``."""
    for i in range(ops):
        k = i % 3
        if k == 0:
            x = x + ADD
        elif k == 1:
            x = x * MUL
        else:
            x = x.tanh()
    return x


def build(peer: str, p: dict):
    x0 = data.op_chain_input(tuple(p["shape"]))
    ops = p["ops"]
    if peer == "minigrad":
        import minigrad as mg

        def run():
            x = mg.tensor(x0, requires_grad=True)
            chain(x, ops).sum().backward()
            return float(np.linalg.norm(x.grad.array))

        return run
    if peer == "torch":
        torch = import_torch()

        def run():
            x = torch.tensor(x0, requires_grad=True)
            chain(x, ops).sum().backward()
            return float(x.grad.norm())

        return run
    if peer == "numpy":
        return lambda: numpy_floor(x0, ops)
    if peer == "micrograd":
        raise Skip("scalar engine: a (4,4) tensor chain does not fit")
    raise Skip(f"no {peer} peer for {NAME}")


def numpy_floor(x0: np.ndarray, ops: int) -> float:
    """Forward keeping what backward needs (tanh outputs), then the chain rule by hand."""
    x = x0.copy()
    saved = []
    for i in range(ops):
        k = i % 3
        if k == 0:
            x = x + ADD
        elif k == 1:
            x = x * MUL
        else:
            x = np.tanh(x)
            saved.append(x)
    g = np.ones_like(x)
    for i in range(ops - 1, -1, -1):
        k = i % 3
        if k == 1:
            g = g * MUL
        elif k == 2:
            y = saved.pop()
            g = g * (1 - y * y)
    return float(np.linalg.norm(g))
