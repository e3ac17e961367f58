"""Adam and AdamW (PyTorch's update rules, with optional AMSGrad)."""

from __future__ import annotations

from ..tensor import Tensor
from ._validate import check_differentiable, check_fused
from .optimizer import Optimizer, check_tensor_hyperparameter, shown

__all__ = ["Adam", "AdamW"]


def _check(lr, betas, eps, weight_decay) -> None:
    check_tensor_hyperparameter(lr, "lr")
    if not 0.0 <= lr:  # written so that NaN is refused
        raise ValueError(f"Invalid learning rate: {shown(lr)}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {shown(eps)}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {shown(betas[0])}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {shown(betas[1])}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {shown(weight_decay)}")
    if not all(isinstance(b, float) for b in betas) and not all(isinstance(b, Tensor) for b in betas):
        raise ValueError("betas must be either both floats or both Tensors")


class Adam(Optimizer):
    """Adam: bias-corrected moving averages of the gradient and its square.

    ``weight_decay`` is L2 regularisation (added to the gradient), or with
    ``decoupled_weight_decay`` AdamW's decay of the parameter itself. ``foreach`` and
    ``fused`` are PyTorch's: ``foreach=False`` updates one parameter at a time; otherwise
    small parameters are updated together (``minigrad.optim.flat``), with the same bits.
    """

    _elementwise = True

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ):
        _check(lr, betas, eps, weight_decay)
        check_differentiable(differentiable)
        check_fused(foreach, fused)
        defaults = dict(
            lr=lr,
            betas=tuple(betas),
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        if wd:
            if group["decoupled_weight_decay"]:
                param *= 1 - lr * wd
            else:
                grad = grad + wd * param
        if not state:
            state["step"] = 0
            state["exp_avg"] = xp.zeros_like(param)
            state["exp_avg_sq"] = xp.zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = xp.zeros_like(param)
        state["step"] += 1
        step = state["step"]
        m, v = state["exp_avg"], state["exp_avg_sq"]
        # torch's formulas, each pass written into one of two scratch arrays (not a new array per operator)
        scratch = grad - m
        scratch *= 1 - beta1
        m += scratch  # m + (1 - beta1) (grad - m)
        xp.multiply(grad, 1 - beta2, out=scratch)
        scratch *= grad
        v *= beta2
        v += scratch  # beta2 v + (1 - beta2) grad^2
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]
            xp.maximum(vmax, v, out=vmax)
            v = vmax
        bias_correction1 = 1 - beta1**step
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        denom = xp.sqrt(v, out=scratch)
        denom /= bias_correction2_sqrt
        denom += eps
        change = xp.multiply(m, lr / bias_correction1)
        change /= denom
        param -= change  # param - lr / bias_correction1 * m / (sqrt(v) / bias_correction2_sqrt + eps)


class AdamW(Adam):
    """Adam with decoupled weight decay: ``p *= 1 - lr * weight_decay`` before the Adam step."""

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ):
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )
