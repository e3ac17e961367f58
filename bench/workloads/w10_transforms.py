"""W10 function transforms, shared by W10a/W10b (Jacobians) and W10c (per-example gradients).

W10a/W10b: the Jacobian of f(x) = tanh(W @ x), float64, by forward mode (``jacfwd``, one JVP per
input) and reverse mode (``jacrev``, one VJP per output), ours and ``torch.func``'s, against the
analytic NumPy floor diag(1 - t^2) W. A wide Jacobian (4 outputs, 256 inputs) favours reverse
mode; a tall one (256 outputs, 4 inputs) favours forward mode.
"""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

PEERS = ("minigrad-jacfwd", "minigrad-jacrev", "torch-jacfwd", "torch-jacrev", "numpy")
RATIOS = (
    ("minigrad-jacfwd", "minigrad-jacrev"),
    ("minigrad-jacfwd", "torch-jacfwd"),
    ("minigrad-jacrev", "torch-jacrev"),
    ("minigrad-jacrev", "numpy"),
)
UNIT = "ms/Jacobian"


def params(quick: bool, n_out: int, n_in: int) -> dict:
    return {"n_out": n_out, "n_in": n_in, "count": 2 if quick else 20}


def per_unit(p: dict) -> float:
    return p["count"] / 1e3


def problem(p: dict):
    g = data.rng(10)
    W = g.standard_normal((p["n_out"], p["n_in"])) / np.sqrt(p["n_in"])
    return W, g.standard_normal(p["n_in"])


def build(peer: str, p: dict):
    W, x0 = problem(p)
    count = p["count"]
    if peer.startswith("minigrad-"):
        import minigrad as mg
        from minigrad import func

        transform = {"minigrad-jacfwd": func.jacfwd, "minigrad-jacrev": func.jacrev}[peer]
        Wt, x = mg.tensor(W), mg.tensor(x0)
        jac = transform(lambda x: (Wt @ x).tanh())

        def run():
            return float(sum(np.abs(jac(x).array).sum() for _ in range(count)))

        return run
    if peer.startswith("torch-"):
        torch = import_torch()
        transform = {"torch-jacfwd": torch.func.jacfwd, "torch-jacrev": torch.func.jacrev}[peer]
        Wt, x = torch.from_numpy(W), torch.from_numpy(x0)
        jac = transform(lambda x: torch.tanh(Wt @ x))

        def run():
            return float(sum(jac(x).abs().sum() for _ in range(count)))

        return run
    if peer == "numpy":

        def run():
            total = 0.0
            for _ in range(count):
                t = np.tanh(W @ x0)
                total += np.abs((1 - t * t)[:, None] * W).sum()
            return float(total)

        return run
    raise Skip(f"no {peer} peer for W10")
