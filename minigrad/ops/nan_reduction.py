"""Reductions that skip NaN: nansum and nanmean (a NaN counts as absent; its gradient is 0)."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make, make_leaf
from ._util import check_tensor
from .declare import LOOP, bind_methods, op
from .reduction import _axes, _expand_back
from .types import Dim

__all__ = ["nansum", "nanmean"]


@op(batch=LOOP, methods="nansum", saves=("axes", "keepdim", "kept", "shape"))
def nansum(input: Tensor, dim: Dim = None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """The sum over ``dim`` (all dims when None) with NaN counted as zero.

    The rule is ``g`` times the mask of the elements that are not NaN (so an infinite ``g``
    gives NaN at a NaN, as in PyTorch).
    """
    a = check_tensor(input, "nansum", "input")
    d = a.array
    if d.dtype.kind != "f":
        return a.sum(dim, keepdim, dtype=dtype)
    xp = a.device.xp
    axes = _axes(dim, d.ndim)
    shape = d.shape
    present = ~xp.isnan(d)
    out = xp.where(present, d, 0).sum(axis=axes, keepdims=keepdim, dtype=B.to_dtype(dtype) if dtype else None)
    kept = make_leaf(present.astype(d.dtype), a.device)

    def backward(g):
        return (_expand_back(g, shape, axes, keepdim) * kept,)

    def jvp(t):
        return (t * kept).sum(dim=axes, keepdim=keepdim)

    return make(out, (a,), backward, "nansum", jvp)


@op(batch=LOOP, methods="nanmean")
def nanmean(input: Tensor, dim: Dim = None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """The mean over ``dim`` of the elements that are not NaN (NaN where all are); floating tensors only."""
    a = check_tensor(input, "nanmean", "input")
    kind = a.array.dtype.kind if dtype is None else "f"
    if kind != "f":
        name = B.scalar_type_name(a.array.dtype)
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got {name}")
    if dtype is not None:
        a = a.to(dtype)
    present = (~a.isnan()).sum(dim, keepdim)
    return nansum(a, dim, keepdim) / present


bind_methods(Tensor, __name__)
