"""W10e: ``autograd.functional.jacobian(f, x, vectorize=True)`` on W10b's tall Jacobian (tanh(W x), 4 inputs ->
256 outputs, float64), ours and PyTorch's, against the analytic floor. ``vectorize=True`` is one
``autograd.grad(..., is_grads_batched=True)``: PyTorch runs it as one backward pass under ``vmap``, and so
does minigrad (it ran a pass per output vector before issue 31's sixth round)."""

from __future__ import annotations

import numpy as np

from . import Skip, import_torch
from . import w10_transforms as w10

NAME = "W10e"
TITLE = "autograd.functional.jacobian(vectorize=True) of tanh(W x), 4 -> 256 (tall), float64"
UNIT = "ms/Jacobian"
PEERS = ("minigrad", "torch", "numpy")
RATIOS = (("minigrad", "torch"), ("minigrad", "numpy"))
per_unit = w10.per_unit


def params(quick: bool) -> dict:
    return w10.params(quick, n_out=256, n_in=4)


def build(peer: str, p: dict):
    if peer == "numpy":
        return w10.build("numpy", p)
    W, x0 = w10.problem(p)
    count = p["count"]
    if peer == "minigrad":
        import minigrad as mg
        from minigrad.autograd.functional import jacobian

        Wt, x = mg.tensor(W), mg.tensor(x0)

        def run():
            return float(
                sum(np.abs(jacobian(lambda x: (Wt @ x).tanh(), x, vectorize=True).array).sum() for _ in range(count))
            )

        return run
    if peer == "torch":
        torch = import_torch()
        Wt, x = torch.from_numpy(W), torch.from_numpy(x0)

        def run():
            jac = torch.autograd.functional.jacobian
            return float(sum(jac(lambda x: torch.tanh(Wt @ x), x, vectorize=True).abs().sum() for _ in range(count)))

        return run
    raise Skip(f"no {peer} peer for W10e")
