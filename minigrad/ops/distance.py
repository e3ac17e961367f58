"""Pairwise distances: cdist, the p-norm of every row difference (built on ``norm``, whose
gradient at a zero distance is 0, as PyTorch's cdist gives)."""

from __future__ import annotations

from ..tensor import Tensor
from ._util import check_tensor
from .reduction import norm

__all__ = ["cdist"]

_COMPUTE_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)
_TORCH_DTYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int"}


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """Distances between each row of ``x1`` (..., P, M) and each row of ``x2`` (..., R, M): shape (..., P, R).

    Leading (batch) dims broadcast. ``p`` is any non-negative number or inf; ``compute_mode`` is
    accepted for PyTorch's sake, and every mode computes the differences directly (exact at 0).
    """
    x1 = check_tensor(x1, "cdist", "x1")
    x2 = check_tensor(x2, "cdist", "x2")
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, x in (("X1", x1), ("X2", x2)):
        if x.data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.data.ndim}D")
        if x.data.dtype.kind != "f":
            dtype = _TORCH_DTYPE_NAMES.get(x.data.dtype.name, x.data.dtype.name)
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {dtype}")
    if x1.data.shape[-1] != x2.data.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.data.shape[-1]} X2: {x2.data.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.data.dtype != x2.data.dtype:
        found = _TORCH_DTYPE_NAMES.get(x2.data.dtype.name, x2.data.dtype.name)
        raise RuntimeError(f"expected scalar type {_TORCH_DTYPE_NAMES.get(x1.data.dtype.name)} but found {found}")
    return norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, dim=-1)
