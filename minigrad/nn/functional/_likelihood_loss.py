"""Negative log-likelihood losses of a Poisson and of a Gaussian target (poisson_nll_loss,
gaussian_nll_loss), written with differentiable ops as PyTorch writes them."""

from __future__ import annotations

import math

from ...creation import ones_like
from ...ops import where  # the public op: inside vmap it reaches its batching rule
from ...ops.declare import COMPOSITE, LOOP, op
from ...tensor import Tensor
from ._loss import _legacy_reduction, _reduce

__all__ = ["poisson_nll_loss", "gaussian_nll_loss"]


@op(batch=COMPOSITE)
def poisson_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average=None,
    eps: float = 1e-8,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``exp(x) - target * x`` for a log-rate ``x`` (``log_input``), else ``x - target * log(x + eps)``;
    ``full`` adds Stirling's approximation of ``log(target!)`` where ``target > 1``."""
    reduction = _legacy_reduction(size_average, reduce, reduction, "poisson_nll_loss")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        safe = where(target > 1, target, 1.0)
        stirling = safe * safe.log() - safe + 0.5 * (2 * math.pi * safe).log()
        loss = loss + where(target > 1, stirling, 0.0)
    return _reduce(loss, reduction)


def _heteroscedastic(input: Tensor, var: Tensor) -> bool:
    """``var`` broadcasts to ``input`` with exactly one dim of size 1 where ``input``'s differs (PyTorch's test)."""
    if input.dim() != var.dim():
        return False
    return sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1


@op(batch=LOOP)
def gaussian_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    var,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """``0.5 * (log(var) + (input - target)**2 / var)`` (plus ``0.5 * log(2 pi)`` with ``full``), for a
    Gaussian of mean ``input`` and variance ``var`` (a tensor or a float).

    ``var`` is clamped to at least ``eps`` for the value only, as PyTorch does under no_grad: the gradient
    passes through the clamp unchanged.
    """
    if isinstance(var, (int, float)):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif (var.detach().cpu().numpy() < 0).any():
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not _heteroscedastic(input, var):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var + (var.clamp(min=eps) - var).detach()
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)
