"""Adagrad and Adadelta: per-coordinate steps scaled by accumulated squared gradients.

The update rules are those of PyTorch's documentation (torch.optim.Adagrad, torch.optim.Adadelta).
"""

from __future__ import annotations

from ._validate import check_at_least_zero, check_differentiable, check_lr
from .optimizer import Optimizer, shown

__all__ = ["Adagrad", "Adadelta"]


def _direction(group, param, grad):
    """The gradient as the step sees it: negated to maximize, L2 weight decay added."""
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"]:
        grad = grad + group["weight_decay"] * param
    return grad


class Adagrad(Optimizer):
    """Adagrad: ``sum += g*g``; ``p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(sum) + eps)``.

    The sum starts at ``initial_accumulator_value``; its state exists from construction, as in PyTorch.
    """

    _elementwise = True

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach=None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused=None,
    ):
        check_lr(lr)
        check_at_least_zero(lr_decay, "lr_decay value")
        check_at_least_zero(weight_decay, "weight_decay value")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {shown(initial_accumulator_value)}")
        check_at_least_zero(eps, "epsilon value")
        check_differentiable(differentiable)
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                value = float(shown(group["initial_accumulator_value"]))
                self.state[p] = {"step": 0, "sum": p.device.xp.full_like(p.array, value)}

    def _update(self, group, param, grad, state, xp):
        if "sum" not in state:  # a parameter added later by add_param_group
            state["step"] = 0
            state["sum"] = xp.full_like(param, group["initial_accumulator_value"])
        state["step"] += 1
        grad = _direction(group, param, grad)
        clr = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        total = state["sum"]
        total += grad * grad
        param -= clr * grad / (xp.sqrt(total) + group["eps"])


class Adadelta(Optimizer):
    """Adadelta: steps of ``sqrt(acc_delta + eps) / sqrt(square_avg + eps) * g``, both averages with ``rho``."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr=1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach=None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ):
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {shown(rho)}")
        check_at_least_zero(eps, "epsilon value")
        check_at_least_zero(weight_decay, "weight_decay value")
        check_differentiable(differentiable)
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        rho, eps = group["rho"], group["eps"]
        if "square_avg" not in state:
            state["step"] = 0
            state["square_avg"] = xp.zeros_like(param)
            state["acc_delta"] = xp.zeros_like(param)
        state["step"] += 1
        grad = _direction(group, param, grad)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg *= rho
        square_avg += (1 - rho) * grad * grad
        delta = xp.sqrt(acc_delta + eps) / xp.sqrt(square_avg + eps) * grad
        acc_delta *= rho
        acc_delta += (1 - rho) * delta * delta
        param -= group["lr"] * delta
