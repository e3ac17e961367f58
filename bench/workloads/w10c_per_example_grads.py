"""W10c per-example gradients: vmap(grad(loss)) over a batch of 64 for a 16-32-1 MLP (float64), ours
(``minigrad.func.vmap``, which runs the function once per example) and ``torch.func``'s (batching
rules), against one batched backward per example done by hand in NumPy."""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

NAME = "W10c"
TITLE = "per-example gradients, vmap(grad(loss)), batch 64, MLP 16-32-1, float64"
UNIT = "ms/batch"
PEERS = ("minigrad", "torch", "numpy")
RATIOS = (("minigrad", "torch"), ("minigrad", "numpy"))


def params(quick: bool) -> dict:
    return {"batch": 8 if quick else 64, "count": 1 if quick else 5}


def per_unit(p: dict) -> float:
    return p["count"] / 1e3


def problem(p: dict):
    g = data.rng(11)
    W1 = g.standard_normal((16, 32)) / 4
    b1 = np.zeros(32)
    W2 = g.standard_normal((32, 1)) / np.sqrt(32)
    X = g.standard_normal((p["batch"], 16))
    y = g.standard_normal((p["batch"], 1))
    return (W1, b1, W2), X, y


def build(peer: str, p: dict):
    (W1, b1, W2), X, y = problem(p)
    count = p["count"]
    if peer == "minigrad":
        import minigrad as mg
        from minigrad import func

        def loss(W1, b1, W2, x, y):
            return (((x @ W1 + b1).tanh() @ W2 - y) ** 2).sum()

        per_example = func.vmap(func.grad(loss, argnums=(0, 1, 2)), in_dims=(None, None, None, 0, 0))
        args = [mg.tensor(a) for a in (W1, b1, W2, X, y)]

        def run():
            return float(sum(np.abs(per_example(*args)[0].array).sum() for _ in range(count)))

        return run
    if peer == "torch":
        torch = import_torch()

        def loss(W1, b1, W2, x, y):
            return (((x @ W1 + b1).tanh() @ W2 - y) ** 2).sum()

        per_example = torch.func.vmap(torch.func.grad(loss, argnums=(0, 1, 2)), in_dims=(None, None, None, 0, 0))
        args = [torch.from_numpy(a) for a in (W1, b1, W2, X, y)]

        def run():
            return float(sum(per_example(*args)[0].abs().sum() for _ in range(count)))

        return run
    if peer == "numpy":

        def run():
            total = 0.0
            for _ in range(count):
                h = np.tanh(X @ W1 + b1)
                r = 2 * (h @ W2 - y)  # (B, 1)
                dh = r @ W2.T * (1 - h * h)  # (B, 32)
                total += np.abs(X[:, :, None] * dh[:, None, :]).sum()  # per-example dW1 (B, 16, 32)
            return float(total)

        return run
    raise Skip(f"no {peer} peer for {NAME}")
