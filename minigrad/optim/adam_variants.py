"""Adamax, NAdam and RAdam: Adam's moving averages with another step.

The update rules are those of PyTorch's documentation (torch.optim.Adamax, torch.optim.NAdam,
torch.optim.RAdam).
"""

from __future__ import annotations

from ._validate import check_at_least_zero, check_betas, check_differentiable, check_lr
from .optimizer import Optimizer

__all__ = ["Adamax", "NAdam", "RAdam"]


def _check(lr, betas, eps, weight_decay, differentiable) -> None:
    check_lr(lr)
    check_at_least_zero(eps, "epsilon value")
    check_betas(betas)
    check_at_least_zero(weight_decay, "weight_decay value")
    check_differentiable(differentiable)


def _decayed_gradient(group, param, grad):
    """Negate to maximize; apply weight decay: to the parameter (decoupled, as AdamW) or to the gradient."""
    if group["maximize"]:
        grad = -grad
    wd = group["weight_decay"]
    if wd:
        if group.get("decoupled_weight_decay"):
            param *= 1 - group["lr"] * wd
        else:
            grad = grad + wd * param
    return grad


def _moments(state, grad, beta1, beta2, xp):
    """Advance the step count and both moving averages (``exp_avg``, ``exp_avg_sq``); return the step."""
    if "exp_avg" not in state:
        state["step"] = 0
        state["exp_avg"] = xp.zeros_like(grad)
        state["exp_avg_sq"] = xp.zeros_like(grad)
    state["step"] += 1
    m, v = state["exp_avg"], state["exp_avg_sq"]
    m += (1 - beta1) * (grad - m)
    v *= beta2
    v += (1 - beta2) * grad * grad
    return state["step"]


class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm, ``u = max(beta2 * u, |g| + eps)``; ``p -= lr / (1 - beta1^t) * m / u``."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach=None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ):
        _check(lr, betas, eps, weight_decay, differentiable)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        beta1, beta2 = group["betas"]
        grad = _decayed_gradient(group, param, grad)
        if "exp_inf" not in state:
            state["step"] = 0
            state["exp_avg"] = xp.zeros_like(param)
            state["exp_inf"] = xp.zeros_like(param)
        state["step"] += 1
        m, u = state["exp_avg"], state["exp_inf"]
        m += (1 - beta1) * (grad - m)
        u *= beta2
        xp.maximum(u, xp.abs(grad) + group["eps"], out=u)
        param -= group["lr"] / (1 - beta1 ** state["step"]) * m / u


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum, whose momentum ``mu_t = beta1 * (1 - 0.96^(t * momentum_decay) / 2)``
    warms up; ``decoupled_weight_decay`` gives NAdamW."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach=None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ):
        _check(lr, betas, eps, weight_decay, differentiable)
        check_at_least_zero(momentum_decay, "momentum_decay value")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["momentum_decay"]
        grad = _decayed_gradient(group, param, grad)
        state.setdefault("mu_product", 1.0)
        step = _moments(state, grad, beta1, beta2, xp)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        state["mu_product"] *= mu
        mu_product = state["mu_product"]
        denom = xp.sqrt(state["exp_avg_sq"] / (1 - beta2**step)) + group["eps"]
        param -= lr * (1.0 - mu) / (1.0 - mu_product) * grad / denom
        param -= lr * mu_next / (1.0 - mu_product * mu_next) * state["exp_avg"] / denom


class RAdam(Optimizer):
    """RAdam: Adam whose adaptive step is rectified by the variance of its second moment; while too few steps
    have been seen (``rho_t <= 5``) it steps by the bias-corrected momentum alone."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach=None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ):
        _check(lr, betas, eps, weight_decay, differentiable)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        lr, (beta1, beta2) = group["lr"], group["betas"]
        grad = _decayed_gradient(group, param, grad)
        step = _moments(state, grad, beta1, beta2, xp)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = state["exp_avg"] / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2**step / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive = bias_correction2**0.5 / (xp.sqrt(state["exp_avg_sq"]) + group["eps"])
            param -= corrected * lr * adaptive * rect
        else:
            param -= corrected * lr
