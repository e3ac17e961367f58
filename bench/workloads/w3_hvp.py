"""W3 Hessian-vector products: f(x) = sum(tanh(W @ x)**2), W (512, 512) float64, each HVP by
double backward (grad with create_graph, then grad of <grad, v>), 50 directions per run."""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

NAME = "W3"
TITLE = "Hessian-vector product by double backward, W (512,512) float64"
UNIT = "ms/HVP"
PEERS = ("minigrad", "torch", "numpy", "micrograd")
TARGETS = {("minigrad", "torch"): 1.0}  # ratio <= target


def params(quick: bool) -> dict:
    return {"n": 32 if quick else 512, "count": 3 if quick else 50}


def per_unit(p: dict) -> float:
    return p["count"] / 1e3


def build(peer: str, p: dict):
    W, x0, V = data.hvp_problem(p["n"], p["count"])
    if peer == "minigrad":
        import minigrad as mg
        from minigrad.autograd import grad

        Wt, vs = mg.tensor(W), [mg.tensor(v) for v in V]

        def run():
            x = mg.tensor(x0, requires_grad=True)
            total = np.zeros_like(x0)
            for v in vs:
                f = ((Wt @ x).tanh() ** 2).sum()
                (g,) = grad(f, x, create_graph=True)
                (hv,) = grad((g * v).sum(), x)
                total += hv.array
            return float(np.linalg.norm(total))

        return run
    if peer == "torch":
        torch = import_torch()
        Wt, vs = torch.from_numpy(W), [torch.from_numpy(v) for v in V]

        def run():
            x = torch.tensor(x0, requires_grad=True)
            total = torch.zeros_like(x)
            for v in vs:
                f = ((Wt @ x).tanh() ** 2).sum()
                (g,) = torch.autograd.grad(f, x, create_graph=True)
                (hv,) = torch.autograd.grad((g * v).sum(), x)
                total += hv
            return float(total.norm())

        return run
    if peer == "numpy":
        return lambda: numpy_floor(W, x0, V)
    if peer == "micrograd":
        raise Skip("no double backward")
    raise Skip(f"no {peer} peer for {NAME}")


def numpy_floor(W: np.ndarray, x: np.ndarray, V: np.ndarray) -> float:
    """The analytic HVP: H v = W^T [(2 - 6 t^2)(1 - t^2) * (W v)] with t = tanh(W x)."""
    total = np.zeros_like(x)
    for v in V:
        t = np.tanh(W @ x)
        t2 = t * t
        total += W.T @ ((2 - 6 * t2) * (1 - t2) * (W @ v))
    return float(np.linalg.norm(total))
