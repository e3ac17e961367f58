"""Pairwise distances: cdist, the p-norm of every row difference, and pdist, of every pair of rows of one set.

The Euclidean case (p = 2) is one op: its value from matrix products when the sets are large
(``|a|^2 + |b|^2 - 2 a.b``, as PyTorch's ``use_mm_for_euclid_dist_if_necessary``) or from the
differences, and its rule is matrix products too. Other p are built on ``norm``. At a zero
distance the gradient is 0, as PyTorch's cdist gives.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import backend as B
from ..creation import zeros_like
from ..tensor import Tensor, make, make_leaf
from ._util import check_tensor
from .declare import COMPOSITE, LOOP, op, rules_saving
from .elementwise import where
from .reduction import norm

__all__ = ["cdist", "pdist"]

_COMPUTE_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


@op(batch=LOOP)
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
        if x.array.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.array.ndim}D")
        if x.array.dtype.kind != "f":
            dtype = B.scalar_type_name(x.array.dtype)
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {dtype}")
    if x1.array.shape[-1] != x2.array.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.array.shape[-1]} X2: {x2.array.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.array.dtype != x2.array.dtype:
        found = B.scalar_type_name(x2.array.dtype)
        raise RuntimeError(f"expected scalar type {B.scalar_type_name(x1.array.dtype)} but found {found}")
    if p == 2:
        large = x1.array.shape[-2] > 25 or x2.array.shape[-2] > 25
        use_mm = compute_mode == "use_mm_for_euclid_dist" or (compute_mode == _COMPUTE_MODES[0] and large)
        return _euclidean(x1, x2, use_mm)
    if p == 0:
        return _hamming(x1, x2)
    return norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, dim=-1)


@rules_saving(("x1", "x2"))
def _hamming(x1: Tensor, x2: Tensor) -> Tensor:
    """p = 0: how many coordinates differ. Piecewise constant, so its rule is zeros (PyTorch's cdist gives
    zero gradients, where ``vector_norm(ord=0)`` gives none)."""
    out = (x1.array[..., :, None, :] != x2.array[..., None, :, :]).sum(axis=-1).astype(x1.array.dtype)

    def backward(g):
        return lambda: zeros_like(x1), lambda: zeros_like(x2)

    def jvp(t1, t2):
        return (t1.unsqueeze(-2) - t2.unsqueeze(-3)).sum(-1) * 0.0

    return make(out, (x1, x2), backward, "cdist", jvp)


def _over_distance(t: Tensor, d: Tensor) -> Tensor:
    """``t / d``, and 0 where the distance is 0 (the subgradient PyTorch picks)."""
    positive = d > 0
    return where(positive, t / where(positive, d, 1.0), 0.0)


@rules_saving(("out_ref", "x1", "x2"))
def _euclidean(x1: Tensor, x2: Tensor, use_mm: bool) -> Tensor:
    """d_ij = |x1_i - x2_j|. With w = g / d: the rule is x1 * sum_j w_ij - w @ x2 for x1, and the
    same with the roles swapped for x2 (each is sum_j w_ij (x1_i - x2_j))."""
    xp = x1.device.xp
    a, b = x1.array, x2.array
    if use_mm:
        squared = (a * a).sum(-1)[..., :, None] + (b * b).sum(-1)[..., None, :] - 2 * (a @ xp.swapaxes(b, -1, -2))
        out = xp.sqrt(xp.maximum(squared, 0))
    else:
        diff = a[..., :, None, :] - b[..., None, :, :]
        out = xp.sqrt((diff * diff).sum(-1))

    def backward(g):
        w = _over_distance(g, out_ref())
        return (
            lambda: x1 * w.sum(-1, keepdim=True) - w @ x2,
            lambda: x2 * w.sum(-2).unsqueeze(-1) - w.transpose(-1, -2) @ x1,
        )

    def jvp(t1, t2):
        along = (
            (x1 * t1).sum(-1, keepdim=True)
            - t1 @ x2.transpose(-1, -2)
            - x1 @ t2.transpose(-1, -2)
            + (x2 * t2).sum(-1).unsqueeze(-2)
        )
        return _over_distance(along, _euclidean(x1, x2, use_mm))

    node = make(out, (x1, x2), backward, "cdist", jvp)
    out_ref = weakref.ref(node)
    return node


@op(batch=COMPOSITE)
def pdist(input: Tensor, p: float = 2.0) -> Tensor:  # noqa: A002  (torch's argument name)
    """The ``p``-norm distance between each pair of rows i < j of an (N, M) input, as a vector of
    N (N - 1) / 2 in row-major order (the upper triangle of ``cdist(input, input)``). Made of
    ``index_select`` and ``norm``, so its gradient is theirs (0 at a zero distance)."""
    x = check_tensor(input, "pdist", "input")
    if x.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.dim()}D")
    if x.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    xp = x.device.xp
    first, second = (make_leaf(xp.asarray(i, dtype=xp.int64), x.device) for i in np.triu_indices(x.shape[0], 1))
    # the methods, not this package's raw functions: inside vmap they reach their batching rules
    diff = x.index_select(0, first) - x.index_select(0, second)
    if p == 0:  # the count of coordinates that differ, with torch's pdist's zero gradient (norm's is None)
        return diff.sign().abs().sum(-1)
    return diff.norm(p, dim=-1)
