"""Directions of vectors: normalize and cosine_similarity (compositions of ``norm`` and division)."""

from __future__ import annotations

from ...backend import result_dtype
from ...ops._util import broadcast_shapes
from ...ops.declare import LOOP, op
from ...ops.reduction import norm
from ...ops.types import Dim
from ...tensor import Tensor

__all__ = ["normalize", "cosine_similarity"]


@op(batch=LOOP)
def normalize(input: Tensor, p=2.0, dim: Dim = 1, eps: float = 1e-12, out=None) -> Tensor:  # noqa: A002
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``): unit vectors along ``dim``.

    ``p`` may be a number, a one-element tensor, ``None`` or ``"fro"`` (both 2); ``dim`` an int,
    a tuple of ints or ``None`` (every dim), as PyTorch accepts.
    """
    if out is not None:
        raise TypeError("normalize(): the 'out' argument is not supported (minigrad ops return new tensors)")
    if isinstance(p, Tensor) and p.numel() == 1:
        p = p.item()
    if p is None or (isinstance(p, str) and p == "fro"):
        p = 2.0
    if isinstance(p, str):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    if not isinstance(p, (int, float)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {type(p).__name__}")
    return input / norm(input, p, dim, keepdim=True).clamp(min=eps).expand_as(input)


@op(batch=LOOP)
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (they broadcast).

    As PyTorch: each side is divided by its norm clamped to at least ``eps``, then the
    products are summed, so vectors shorter than ``eps`` give a similarity near 0. The clamp
    changes the value only (PyTorch clamps in place under no_grad): the gradient is the norm's.
    """
    common = result_dtype(x1, x2)
    if common.kind != "f":
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_torch_name(common)}")
    shape = _common_shape(x1, x2)
    a, b = x1.to(common).broadcast_to(shape), x2.to(common).broadcast_to(shape)
    return ((a / _clamped_norm(a, dim, eps)) * (b / _clamped_norm(b, dim, eps))).sum(dim)


def _clamped_norm(x: Tensor, dim: int, eps: float) -> Tensor:
    n = norm(x, 2, dim, keepdim=True)
    return n + (n.clamp(min=eps) - n).detach()


def _common_shape(x1: Tensor, x2: Tensor) -> tuple:
    return broadcast_shapes(tuple(x1.shape), tuple(x2.shape))


def _torch_name(dtype) -> str:
    return {"int64": "Long", "int32": "Int", "bool": "Bool", "uint8": "Byte"}.get(dtype.name, dtype.name)
