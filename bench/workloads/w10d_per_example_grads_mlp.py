"""W10d per-example gradients at a real size: vmap(grad(loss)) over a batch of 64 for a 784-128-10 MLP
(float32), ours (``minigrad.func``, batching rules) against ``torch.func``'s and a NumPy floor that
writes the per-example gradients out by hand. The weights are unbatched (``in_dims=None``), as in a
DP-SGD step: the work is one batched forward and backward plus the [64, 784, 128] outer products."""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

NAME = "W10d"
TITLE = "per-example gradients, vmap(grad(loss)), batch 64, MLP 784-128-10, float32"
UNIT = "ms/batch"
PEERS = ("minigrad", "torch", "numpy")
TARGETS = {("minigrad", "torch"): 1.0}
RATIOS = (("minigrad", "torch"), ("minigrad", "numpy"))


def params(quick: bool) -> dict:
    if quick:
        return {"batch": 4, "inputs": 12, "hidden": 8, "outputs": 3, "count": 1}
    return {"batch": 64, "inputs": 784, "hidden": 128, "outputs": 10, "count": 2}


def per_unit(p: dict) -> float:
    return p["count"] / 1e3


def problem(p: dict):
    g = data.rng(12)
    f32 = np.float32
    W1 = (g.standard_normal((p["inputs"], p["hidden"])) / np.sqrt(p["inputs"])).astype(f32)
    b1 = np.zeros(p["hidden"], f32)
    W2 = (g.standard_normal((p["hidden"], p["outputs"])) / np.sqrt(p["hidden"])).astype(f32)
    X = g.standard_normal((p["batch"], p["inputs"])).astype(f32)
    y = g.standard_normal((p["batch"], p["outputs"])).astype(f32)
    return (W1, b1, W2), X, y


def _loss(W1, b1, W2, x, y):
    return (((x @ W1 + b1).tanh() @ W2 - y) ** 2).sum()


def _check(dW1, dW2) -> float:
    """A cheap digest of the per-example gradients (a full |dW1| sum would be a pass of its own)."""
    return float(np.abs(dW2).sum(dtype=np.float64) + np.abs(dW1[:, :8, :8]).sum(dtype=np.float64))


def _framework_run(func, to_tensor, arrays: tuple, count: int):
    """The run of a framework with torch.func's API: ``func`` (``vmap``, ``grad``) and its array conversion."""
    per_example = func.vmap(func.grad(_loss, argnums=(0, 1, 2)), in_dims=(None, None, None, 0, 0))
    args = [to_tensor(a) for a in arrays]

    def run():
        total = 0.0
        for _ in range(count):
            dW1, _, dW2 = per_example(*args)
            total += _check(dW1.numpy(), dW2.numpy())
        return total

    return run


def build(peer: str, p: dict):
    (W1, b1, W2), X, y = problem(p)
    count = p["count"]
    if peer == "minigrad":
        import minigrad as mg
        from minigrad import func

        return _framework_run(func, mg.tensor, (W1, b1, W2, X, y), count)
    if peer == "torch":
        torch = import_torch()
        return _framework_run(torch.func, torch.from_numpy, (W1, b1, W2, X, y), count)
    if peer == "numpy":

        def run():
            total = 0.0
            for _ in range(count):
                h = np.tanh(X @ W1 + b1)
                r = 2 * (h @ W2 - y)  # (B, outputs)
                dh = r @ W2.T * (1 - h * h)  # (B, hidden): also the per-example gradients of b1
                dW1 = X[:, :, None] * dh[:, None, :]  # (B, inputs, hidden)
                dW2 = h[:, :, None] * r[:, None, :]  # (B, hidden, outputs)
                total += _check(dW1, dW2)
            return total

        return run
    raise Skip(f"no {peer} peer for {NAME}")
