"""W4 deep chain: a float64 scalar through 50 000 ops alternating ``x * 1.0001`` and ``x + 0.0001``,
then backward, at Python's default recursion limit (a recursive topological sort fails here)."""

from __future__ import annotations

import sys

import numpy as np

from . import Skip, import_micrograd, import_torch

NAME = "W4"
TITLE = "deep chain, 50 000 scalar ops + backward, default recursion limit"
UNIT = "s"
PEERS = ("minigrad", "torch", "numpy", "micrograd")
TARGETS = {("minigrad", "torch"): 1.0}  # ratio <= target
MUL, ADD = 1.0001, 0.0001


def params(quick: bool) -> dict:
    return {"ops": 2000 if quick else 50_000}


def per_unit(p: dict) -> float:
    return 1.0


def chain(x, ops: int):
    for i in range(ops):
        x = x * MUL if i % 2 == 0 else x + ADD
    return x


def build(peer: str, p: dict):
    ops = p["ops"]
    info = {"recursion_limit": sys.getrecursionlimit()}
    if peer == "minigrad":
        import minigrad as mg

        def run():
            x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
            chain(x, ops).backward()
            return float(x.grad.item())

        return run, info
    if peer == "torch":
        torch = import_torch()

        def run():
            x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
            chain(x, ops).backward()
            return float(x.grad.item())

        return run, info
    if peer == "numpy":

        def run():
            x = np.array(1.0)
            x = chain(x, ops)
            g = np.array(1.0)
            for i in range(ops - 1, -1, -1):
                if i % 2 == 0:
                    g = g * MUL
            return float(g)

        return run, info
    if peer == "micrograd":
        engine, _ = import_micrograd()

        def run():
            x = engine.Value(1.0)
            chain(x, ops).backward()
            return float(x.grad)

        return run, info
    raise Skip(f"no {peer} peer for {NAME}")
