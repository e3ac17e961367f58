"""Moments as PyTorch composes them: std_mean, var_mean, cov (fweights, aweights, correction), corrcoef.

Each is built from ``mean``, ``var``, ``std``, products and sums, so the debugger shows those ops.
"""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor
from ._util import check_tensor
from .declare import LOOP, bind_methods, op
from .types import Dim

__all__ = ["std_mean", "var_mean", "cov", "corrcoef"]


@op(batch=LOOP)
def std_mean(input: Tensor, dim: Dim = None, unbiased=None, keepdim: bool = False, *, correction=None) -> tuple:  # noqa: A002
    """(std, mean) over ``dim``, with ``std``'s arguments."""
    a = check_tensor(input, "std_mean", "input")
    mean_dim = None if isinstance(dim, bool) else dim
    return a.std(dim, unbiased, keepdim, correction=correction), a.mean(mean_dim, keepdim)


@op(batch=LOOP)
def var_mean(input: Tensor, dim: Dim = None, unbiased=None, keepdim: bool = False, *, correction=None) -> tuple:  # noqa: A002
    """(var, mean) over ``dim``, with ``var``'s arguments."""
    a = check_tensor(input, "var_mean", "input")
    mean_dim = None if isinstance(dim, bool) else dim
    return a.var(dim, unbiased, keepdim, correction=correction), a.mean(mean_dim, keepdim)


def _weights(w, name: str, observations: int, integral: bool):
    if w is None:
        return None
    w = check_tensor(w, "cov", name)
    if w.array.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got {name} with {w.array.ndim} dimensions"
        )
    if integral and w.array.dtype.kind not in "iu":
        raise RuntimeError(
            f"cov(): expected fweights to have integral dtype but got fweights with {_type_word(w)} dtype"
        )
    if not integral and w.array.dtype.kind != "f":
        raise RuntimeError(
            f"cov(): expected aweights to have floating point dtype but got aweights with {_type_word(w)} dtype"
        )
    if w.numel() != observations:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are observations in the input but got "
            f"{w.numel()} != {observations}"
        )
    if bool((w.array < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")
    return w


def _type_word(w: Tensor) -> str:
    return B.scalar_type_name(w.array.dtype)


@op(batch=LOOP, methods="cov")
def cov(
    input: Tensor, *, correction: int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None
) -> Tensor:  # noqa: A002
    """The covariance matrix of the variables in ``input``'s rows (observations in its columns; one
    variable for a vector), with frequency and importance weights and ``correction`` as NumPy's cov."""
    a = check_tensor(input, "cov", "input")
    if a.array.ndim > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with {a.array.ndim} dimensions"
        )
    x = a.reshape(1, -1) if a.array.ndim < 2 else a
    if x.array.dtype.kind != "f":
        x = x.float()
    observations = x.array.shape[1]
    fw = _weights(fweights, "fweights", observations, integral=True)
    aw = _weights(aweights, "aweights", observations, integral=False)
    w = fw if aw is None else (aw if fw is None else fw * aw)
    if w is None:
        total = observations
        mean = x.mean(1, keepdim=True)
        dof = total - correction
    else:
        w = w.to(x.dtype)
        total = w.sum()
        mean = (x * w).sum(1, keepdim=True) / total
        dof = total - correction if aw is None else total - correction * (w * aw.to(x.dtype)).sum() / total
    centred = x - mean
    weighted = centred if w is None else centred * w
    product = weighted.mm(centred.t()) / dof
    return product.squeeze() if a.array.ndim < 2 else product


@op(batch=LOOP, methods="corrcoef")
def corrcoef(input: Tensor) -> Tensor:  # noqa: A002
    """Pearson's correlation coefficients of the variables in ``input``'s rows, clipped to [-1, 1]."""
    a = check_tensor(input, "corrcoef", "input")
    if a.array.ndim > 2:
        raise RuntimeError(
            f"corrcoef(): expected input to have two or fewer dimensions but got an input with {a.array.ndim} dimensions"
        )
    c = cov(a)
    if c.array.ndim == 0:
        return c / c
    spread = c.diagonal().sqrt()
    return (c / spread[:, None] / spread[None, :]).clamp(-1, 1)


bind_methods(Tensor, __name__)
