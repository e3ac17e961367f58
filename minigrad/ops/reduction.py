"""Reductions over ``dim`` (int or tuple) with ``keepdim``, forward beside backward."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make
from ._util import normalize_dims

__all__ = ["sum", "mean"]


def _keepdim_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _expand_back(g: Tensor, shape: tuple, axes: tuple, keepdim: bool) -> Tensor:
    """Undo a reduction's shape change on the gradient: re-insert dims, then broadcast."""
    if not keepdim:
        g = g.reshape(_keepdim_shape(shape, axes))
    return g.expand(shape)


def sum(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """Sum over ``dim`` (all dims when None). Integer and bool tensors sum to int64."""
    axes = normalize_dims(dim, a.data.ndim)
    d = a.data
    out_dtype = B.to_dtype(dtype) if dtype is not None else (B.int64 if d.dtype.kind in "biu" else d.dtype)
    shape = d.shape

    def backward(g):
        return (_expand_back(g, shape, axes, keepdim),)

    return make(d.sum(axis=axes, keepdims=keepdim, dtype=out_dtype), (a,), backward, "sum")


def mean(a: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """Mean over ``dim`` (all dims when None); floating tensors only, as in PyTorch."""
    d = a.data
    if dtype is not None:
        d = d.astype(B.to_dtype(dtype))
    if d.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {d.dtype}"
        )
    axes = normalize_dims(dim, d.ndim)
    shape = d.shape
    count = 1
    for ax in axes:
        count *= shape[ax]

    def backward(g):
        return (_expand_back(g, shape, axes, keepdim) / count,)

    return make(d.mean(axis=axes, keepdims=keepdim), (a,), backward, "mean")


def _bind() -> None:
    Tensor.sum = sum
    Tensor.mean = mean


_bind()
