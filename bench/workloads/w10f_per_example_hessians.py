"""W10f: per-example Hessians, ``vmap(hessian(f))`` over a batch of 32 inputs for f(v) = sum(tanh(W v)^2),
W [64, 64], float64 (a Hessian is ``jacfwd(jacrev(f))``: each example's 64 basis vectors pushed through a
pull-back, a batch of 32 x 64 of them), ours and ``torch.func``'s, against the analytic floor
W^T diag(2 (1 - t^2)(1 - 3 t^2)) W. Its arrays are [32, 64, 64] (1 MB), made and freed by the dozen a call:
before issue 31's seventh round raised glibc's heap thresholds at import, 12 500 page faults a call."""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

NAME = "W10f"
TITLE = "per-example Hessians, vmap(hessian(f)) over 32 inputs, f(v) = sum(tanh(W v)^2), W 64 x 64, float64"
UNIT = "ms/batch"
PEERS = ("minigrad", "torch", "numpy")
RATIOS = (("minigrad", "torch"), ("minigrad", "numpy"))


def params(quick: bool) -> dict:
    return {"batch": 4, "n": 8, "count": 1} if quick else {"batch": 32, "n": 64, "count": 4}


def per_unit(p: dict) -> float:
    return p["count"] / 1e3


def problem(p: dict):
    g = data.rng(11)
    return g.standard_normal((p["n"], p["n"])) / np.sqrt(p["n"]), g.standard_normal((p["batch"], p["n"]))


def build(peer: str, p: dict):
    W, X = problem(p)
    count = p["count"]
    if peer == "minigrad":
        import minigrad as mg
        from minigrad.func import hessian, vmap

        Wt, Xt = mg.tensor(W), mg.tensor(X)
        hessians = vmap(hessian(lambda v: (Wt @ v).tanh().square().sum()))

        def run():
            return float(sum(np.abs(hessians(Xt).array).sum() for _ in range(count)))

        return run
    if peer == "torch":
        torch = import_torch()
        Wt, Xt = torch.from_numpy(W), torch.from_numpy(X)
        hessians = torch.func.vmap(torch.func.hessian(lambda v: torch.tanh(Wt @ v).square().sum()))

        def run():
            return float(sum(hessians(Xt).abs().sum() for _ in range(count)))

        return run
    if peer == "numpy":

        def run():
            total = 0.0
            for _ in range(count):
                t = np.tanh(X @ W.T)
                h = 2 * (1 - t * t) * (1 - 3 * t * t)
                total += np.abs(np.einsum("ji,bj,jk->bik", W, h, W, optimize=True)).sum()
            return float(total)

        return run
    raise Skip(f"no {peer} peer for W10f")
