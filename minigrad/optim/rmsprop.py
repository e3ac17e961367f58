"""RMSprop (PyTorch's update rule, with optional centering and momentum)."""

from __future__ import annotations

from ..tensor import Tensor
from ._validate import check_differentiable
from .optimizer import Optimizer, check_tensor_hyperparameter, shown

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """Divide the gradient by a running root-mean-square of recent gradients."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        momentum: float = 0.0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ):
        check_tensor_hyperparameter(lr, "lr")
        if not 0.0 <= lr:  # written so that NaN is refused
            raise ValueError(f"Invalid learning rate: {shown(lr)}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {shown(eps)}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {shown(momentum)}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {shown(weight_decay)}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {shown(alpha)}")
        check_differentiable(differentiable)
        defaults = dict(
            lr=lr,
            alpha=alpha,
            eps=eps,
            weight_decay=weight_decay,
            momentum=momentum,
            centered=centered,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        if not state:
            state["step"] = 0
            state["square_avg"] = xp.zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = xp.zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = xp.zeros_like(param)
        state["step"] += 1
        square_avg = state["square_avg"]
        square_avg *= alpha
        square_avg += (1 - alpha) * grad * grad
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg += (1 - alpha) * (grad - grad_avg)
            avg = xp.sqrt(square_avg - grad_avg * grad_avg) + eps
        else:
            avg = xp.sqrt(square_avg) + eps
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf *= group["momentum"]
            buf += grad / avg
            param -= lr * buf
        else:
            param -= lr * grad / avg
