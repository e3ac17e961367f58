"""SGD with momentum, dampening, Nesterov momentum and weight decay (PyTorch's update rule)."""

from __future__ import annotations

from ..tensor import Tensor
from ._validate import check_differentiable, check_fused
from .optimizer import Optimizer, check_tensor_hyperparameter, shown

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent.

    With ``momentum`` m the buffer is ``b = m * b + (1 - dampening) * g`` (the first
    step sets ``b = g``); the step is ``b`` (or ``g + m * b`` with ``nesterov``).
    ``weight_decay`` adds ``weight_decay * p`` to the gradient first. With momentum (or
    ``foreach=True``) small parameters are updated together (``minigrad.optim.flat``), with
    the same bits; ``foreach=False`` updates one parameter at a time.
    """

    _elementwise = True

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ):
        check_tensor_hyperparameter(lr, "lr")
        if lr < 0.0:  # PyTorch's test for SGD: a NaN lr passes, where the other optimizers refuse it
            raise ValueError(f"Invalid learning rate: {shown(lr)}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {shown(momentum)}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {shown(weight_decay)}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        check_differentiable(differentiable)
        check_fused(foreach, fused)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)

    def _worth_joining(self, group) -> bool:
        return bool(group["momentum"])  # without momentum, one or two NumPy calls per parameter

    def _update(self, group, param, grad, state, xp):
        lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        if wd:
            grad = grad + wd * param
        if momentum:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.copy()
            else:
                buf *= momentum
                buf += (1 - group["dampening"]) * grad
            grad = grad + momentum * buf if group["nesterov"] else buf
        param -= lr * grad
