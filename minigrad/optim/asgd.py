"""ASGD: averaged stochastic gradient descent (PyTorch's documented update, torch.optim.ASGD)."""

from __future__ import annotations

from ._validate import check_at_least_zero, check_differentiable, check_lr
from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Averaged SGD: ``p = p * (1 - lambd * eta) - eta * g`` with a decaying step
    ``eta = lr / (1 + lambd * lr * t)^alpha``, and ``ax``, the average of the iterates from step ``t0`` on
    (``state["ax"]``, the averaged parameters, as in PyTorch)."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach=None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ):
        check_lr(lr)
        check_at_least_zero(weight_decay, "weight_decay value")
        check_differentiable(differentiable)
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        lr, lambd = group["lr"], group["lambd"]
        if "ax" not in state:
            state["step"] = 0
            state["eta"] = lr
            state["mu"] = 1.0
            state["ax"] = xp.zeros_like(param)
        state["step"] += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        eta = state["eta"]
        param *= 1 - lambd * eta
        param -= eta * grad
        ax = state["ax"]
        if state["mu"] != 1:
            ax += (param - ax) * state["mu"]
        else:
            ax[...] = param
        step = state["step"]
        state["eta"] = lr / (1 + lambd * lr * step) ** group["alpha"]
        state["mu"] = 1 / max(1, step - group["t0"])
