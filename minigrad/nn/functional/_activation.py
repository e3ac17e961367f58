"""Activations as functions: relu, tanh, sigmoid, gelu, ..., softmax, log_softmax."""

from __future__ import annotations

from ...ops._util import normalize_dims
from ...ops.elementwise import gelu, leaky_relu, relu, sigmoid, silu, softplus, tanh
from ...tensor import Tensor, make_leaf
from ._softmax import softmax_node

__all__ = ["relu", "tanh", "sigmoid", "gelu", "leaky_relu", "silu", "softplus", "softmax", "log_softmax"]


def log_softmax(x: Tensor, dim: int = -1) -> Tensor:
    """``x - logsumexp(x, dim)``, shifted by the max first so large logits cannot overflow.

    The shift is a constant: log-sum-exp is shift invariant, so it needs no gradient.
    """
    (axis,) = normalize_dims(dim, x.data.ndim)
    shifted = x - make_leaf(x.data.max(axis=axis, keepdims=True), x._device)
    return shifted - shifted.exp().sum(dim=axis, keepdim=True).log()


def softmax(x: Tensor, dim: int = -1) -> Tensor:
    """``exp(x) / sum(exp(x), dim)``, computed from the max-shifted values; one graph node."""
    (axis,) = normalize_dims(dim, x.data.ndim)
    xp = x._device.xp
    e = xp.exp(x.data - x.data.max(axis=axis, keepdims=True))
    return softmax_node(x, e / e.sum(axis=axis, keepdims=True), axis)
