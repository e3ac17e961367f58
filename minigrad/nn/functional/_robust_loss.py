"""Losses with a quadratic core and linear tails (huber_loss, smooth_l1_loss), and kl_div.

Each is a composition of differentiable ops (``where`` picks the piece), so its gradient is the
pieces' gradients; at the joints both pieces have the same slope.
"""

from __future__ import annotations

import warnings

from ... import backend as B
from ...ops.declare import LOOP, op
from ...ops.elementwise import where
from ...tensor import Tensor
from ._loss import _as_target, _legacy_reduction, _numeric, _reduce, _warn_size

__all__ = ["huber_loss", "smooth_l1_loss", "kl_div"]


def _check_reduction(reduction, allowed=("none", "mean", "sum")) -> None:
    if not isinstance(reduction, str) or reduction not in allowed:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _number(value, op: str, arg: str):
    """A number argument; a one-element tensor is taken for its value, as PyTorch does."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise TypeError(f"{op}(): argument '{arg}' must be Number, not Tensor")
        return value.item()
    return value


@op(batch=LOOP)
def huber_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    reduction="mean",
    delta=1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """``0.5 d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 delta)``, with ``d = input - target``."""
    _check_reduction(reduction)
    delta = _number(delta, "huber_loss", "delta")
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    target = _as_target(target, input, "huber_loss")
    _warn_size("huber_loss", input, target)
    if input.array.dtype.kind in "biu" and target.array.dtype.kind == "f":
        names = (B.scalar_type_name(t.array.dtype) for t in (target, input))
        raise RuntimeError("result type {} can't be cast to the desired output type {}".format(*names))
    d = _numeric(input, target) - _numeric(target, input)
    size = d.abs()
    loss = where(size < delta, 0.5 * d * d, delta * (size - 0.5 * delta))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@op(batch=LOOP)
def smooth_l1_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction="mean",
    beta=1.0,
) -> Tensor:
    """``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (the L1 loss when ``beta == 0``)."""
    reduction = _legacy_reduction(size_average, reduce, reduction, "smooth_l1_loss")
    _check_reduction(reduction)
    beta = _number(beta, "smooth_l1_loss", "beta")
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    target = _as_target(target, input, "smooth_l1_loss")
    _warn_size("smooth_l1_loss", input, target)
    d = _numeric(input, target) - _numeric(target, input)
    size = d.abs()
    if beta == 0:
        return _reduce(size, reduction)
    return _reduce(where(size < beta, 0.5 * d * d / beta, size - 0.5 * beta), reduction)


@op(batch=LOOP)
def kl_div(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction="mean",
    log_target: bool = False,
) -> Tensor:
    """KL divergence of ``target`` from the distribution whose log-probabilities are ``input``.

    Pointwise ``target * (log(target) - input)`` (0 where ``target == 0``), or with
    ``log_target`` ``exp(target) * (target - input)``. ``reduction="batchmean"`` divides the sum
    by the batch size (the mathematical KL divergence); ``"mean"`` divides by every element and
    warns, as PyTorch does. As in PyTorch, the legacy ``size_average``/``reduce`` flags replace
    ``reduction``, and ``"batchmean"`` still divides their result by the batch size.
    """
    given = reduction
    reduction = _legacy_reduction(size_average, reduce, reduction, "kl_div")
    _check_reduction(reduction, ("none", "mean", "sum", "batchmean"))
    if reduction == "mean" and given == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            UserWarning,
            stacklevel=2,
        )
    target = _as_target(target, input, "kl_div")
    if input.array.dtype.kind in "biu" or target.array.dtype.kind in "biu":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        positive = target > 0
        loss = where(positive, target * where(positive, target, 1.0).log(), 0.0) - target * input
    loss = _reduce(loss, "sum" if reduction == "batchmean" else reduction)
    if given == "batchmean" and input.array.ndim:
        loss = loss / input.shape[0]
    return loss
